-- kind=release want=loop at=2:3
local x = 1
  while redis.call('GET', KEYS[1]) do
  x = x + 1
end
return x
