-- kind=acquire want=command
return redis.pcall('DEBUG', 'SLEEP', 100)
