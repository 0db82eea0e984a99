-- kind=release want=assign at=1:1
KEYS[1] = 'other'
return redis.call('DEL', KEYS[1])
