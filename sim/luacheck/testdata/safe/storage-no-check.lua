-- kind=storage
redis.call('SET', KEYS[1], ARGV[2])
return 1
