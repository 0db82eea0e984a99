-- kind=acquire want=function at=1:1
function f() return f() end
return f()
