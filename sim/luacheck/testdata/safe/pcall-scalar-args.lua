-- kind=acquire
-- pcall with arguments that are strings or numbers for sure
local ttl = tonumber(ARGV[2]) or 1000
local v = ARGV[1] .. ':' .. ttl
redis.pcall('SET', KEYS[1], v, 'PX', ttl + 0)
return redis.pcall('SET', KEYS[1], tostring(redis.call('GET', KEYS[1])))
