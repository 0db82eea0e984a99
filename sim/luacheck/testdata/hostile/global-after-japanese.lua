-- kind=acquire want=global at=1:20
local a = 'あいう' .. string.rep('x', 3)
