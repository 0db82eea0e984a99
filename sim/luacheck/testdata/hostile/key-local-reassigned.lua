-- kind=release want=key-assign at=2:1
local k = KEYS[1]
k = 'other'
return redis.call('DEL', k)
