-- kind=storage
-- store the value tagged with its token: a bounded concatenation
local last = tonumber(redis.call('GET', KEYS[2])) or -1
if tonumber(ARGV[1]) >= last then
  redis.call('SET', KEYS[2], ARGV[1])
  return redis.call('SET', KEYS[1], ARGV[2] .. ' (token ' .. ARGV[1] .. ')')
end
return redis.pcall('GET', KEYS[1])
