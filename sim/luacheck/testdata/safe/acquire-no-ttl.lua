-- kind=acquire
return redis.call('set', KEYS[1], ARGV[1], 'nx')
