-- kind=release
return redis.call('DEL', KEYS[1])
