-- kind=extend
-- push the expiry out by ARGV[2] from what is left
local left = redis.call('PTTL', KEYS[1])
if left < 0 then return 0 end
return redis.call('PEXPIRE', KEYS[1], left + tonumber(ARGV[2]))
