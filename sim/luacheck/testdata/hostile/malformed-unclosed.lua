-- kind=acquire want=syntax-end
if redis.call('GET', KEYS[1]) then
  return 1
