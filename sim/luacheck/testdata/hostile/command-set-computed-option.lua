-- kind=acquire want=args
return redis.call('SET', KEYS[1], ARGV[1], ARGV[2])
