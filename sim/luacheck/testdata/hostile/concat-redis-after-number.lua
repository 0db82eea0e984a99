-- kind=storage want=concat-redis at=2:20
local n = redis.call('INCR', KEYS[2])
return 'n' .. n .. redis.call('GET', KEYS[1]) .. 'x'
