-- kind=acquire want=global at=1:11
local t = setmetatable({}, {__index = function() end})
