-- kind=acquire want=shadow at=1:7
local redis = 1
