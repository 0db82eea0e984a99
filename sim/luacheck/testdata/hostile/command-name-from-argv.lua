-- kind=release want=command-name
return redis.call(ARGV[1], KEYS[1])
