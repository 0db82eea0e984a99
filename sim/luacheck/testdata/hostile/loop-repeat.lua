-- kind=acquire want=loop at=1:1
repeat
  local v = redis.call('GET', KEYS[1])
until false
