-- kind=acquire want=call
local f = 1
return f()
