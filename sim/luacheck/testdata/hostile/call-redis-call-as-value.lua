-- kind=acquire want=call at=1:11
local f = redis.call
return f('FLUSHALL')
