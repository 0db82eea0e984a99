-- kind=release
return redis.call('DELEX', KEYS[1], 'IFEQ', ARGV[1])
