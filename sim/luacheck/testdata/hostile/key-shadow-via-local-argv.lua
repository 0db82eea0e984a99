-- kind=release want=shadow at=1:7
local KEYS = ARGV
return redis.call('DEL', KEYS[1])
