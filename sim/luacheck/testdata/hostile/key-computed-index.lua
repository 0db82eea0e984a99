-- kind=storage want=index at=2:26
local i = 1
return redis.call('GET', KEYS[i + 1])
