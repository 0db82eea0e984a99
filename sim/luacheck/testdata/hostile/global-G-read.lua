-- kind=acquire want=global at=1:11
local g = _G
return g
