-- kind=storage want=pcall-arg at=2:36
local v = redis.call('GET', KEYS[2])
return redis.pcall('SET', KEYS[1], v)
