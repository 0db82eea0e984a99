-- kind=extend
return redis.call('PEXPIRE', KEYS[1], ARGV[2])
