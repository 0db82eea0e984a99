-- kind=acquire
-- acquire: look, then take
local holder = redis.call('GET', KEYS[1])
if holder then
  return false
end
return redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
