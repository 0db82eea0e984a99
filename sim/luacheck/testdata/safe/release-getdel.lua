-- kind=release
local old = redis.call('GETDEL', KEYS[1])
if old == ARGV[1] then return 1 end
return 0
