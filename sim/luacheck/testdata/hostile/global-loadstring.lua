-- kind=acquire want=global at=1:8
return loadstring('while true do end')()
