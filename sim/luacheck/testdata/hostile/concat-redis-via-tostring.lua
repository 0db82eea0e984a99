-- kind=storage want=concat-redis
local v = tostring(redis.call('GET', KEYS[1]))
return redis.call('SET', KEYS[1], v .. 'x')
