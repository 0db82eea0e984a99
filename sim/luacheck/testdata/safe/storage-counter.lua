-- kind=storage
local n = redis.call('INCR', KEYS[2])
local note = 'write #' .. n .. ' by ' .. ARGV[1]
do
  local x = #note * 2 - 1
  note = note .. ':' .. tostring(x % 7) .. (not false and 'y' or 'n')
end
redis.call('SET', KEYS[1], note, 'KEEPTTL')
return n
