-- kind=acquire want=syntax at=1:7
local 日本 = 1
