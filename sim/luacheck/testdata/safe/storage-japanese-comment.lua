-- kind=storage
-- トークンが古ければ書き込まない（フェンシング）
local last = tonumber(redis.call('GET', KEYS[2]) or 0)
if tonumber(ARGV[1]) < last then
  return 0 -- 拒否
end
redis.call('SET', KEYS[2], ARGV[1])
redis.call('SET', KEYS[1], ARGV[2])
return 1
