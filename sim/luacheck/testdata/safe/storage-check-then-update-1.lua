-- kind=storage
-- step 1 of two: only the check
local last = tonumber(redis.call('GET', KEYS[2]) or 0)
if tonumber(ARGV[1]) < last then return 0 end
return 1
