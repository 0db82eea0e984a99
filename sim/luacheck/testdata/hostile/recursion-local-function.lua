-- kind=acquire want=function at=1:7
local function f(n) return f(n + 1) end
return f(1)
