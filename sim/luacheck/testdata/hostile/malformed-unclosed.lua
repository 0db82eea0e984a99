-- kind=acquire want=syntax
if redis.call('GET', KEYS[1]) then
  return 1
