-- kind=acquire want=args at=1:50
return redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PXAT', ARGV[2])
