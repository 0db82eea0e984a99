-- kind=release want=index at=1:35
return redis.call('DEL', KEYS[1], KEYS[2])
