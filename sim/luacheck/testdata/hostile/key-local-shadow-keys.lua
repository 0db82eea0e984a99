-- kind=release want=shadow
local KEYS = {'other'}
return redis.call('DEL', KEYS[1])
