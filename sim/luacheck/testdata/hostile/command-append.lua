-- kind=storage want=command
return redis.call('APPEND', KEYS[1], ARGV[2])
