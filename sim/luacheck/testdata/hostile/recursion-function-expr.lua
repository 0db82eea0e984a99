-- kind=release want=function at=1:11
local f = function() return 1 end
return f()
