-- kind=acquire want=global at=1:11
local s = string.rep('x', 1e9)
return redis.call('SET', KEYS[1], s)
