-- kind=acquire want=index at=1:9
return #KEYS
