-- kind=storage want=concat-redis at=2:28
local v = redis.call('GET', KEYS[1]) or 'x'
redis.call('SET', KEYS[1], v .. v)
return 1
