-- kind=acquire want=key
return redis.call('SET', KEYS[1] .. ':2', ARGV[1])
