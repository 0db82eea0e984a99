-- kind=acquire
-- take it, or keep it if it is already mine
local k = KEYS[1]
local holder = redis.call('GET', k)
if holder == ARGV[1] then
  return redis.call('PEXPIRE', k, ARGV[2])
elseif holder then
  return false
else
  return redis.call('SET', k, ARGV[1], 'PX', tonumber(ARGV[2]))
end
