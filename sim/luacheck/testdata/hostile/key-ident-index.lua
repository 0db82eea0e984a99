-- kind=storage want=index at=2:26
local i = 2
return redis.call('DEL', KEYS[i])
