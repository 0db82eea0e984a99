-- kind=acquire
-- four doublings of an ARGV stay under the bound
local a = ARGV[1] .. ARGV[1]
local b = a .. a
local c = b .. b
local d = c .. c
return redis.call('SET', KEYS[1], d, 'PX', ARGV[2])
