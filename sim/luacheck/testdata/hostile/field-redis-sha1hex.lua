-- kind=acquire want=field
return redis.sha1hex(ARGV[1])
