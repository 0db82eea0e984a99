-- kind=release want=command-name at=2:8
local c = 'FLUSH' .. 'ALL'
return redis.call(c)
