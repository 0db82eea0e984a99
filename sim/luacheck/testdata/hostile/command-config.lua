-- kind=acquire want=command
return redis.call('CONFIG', 'SET', 'maxmemory', '1')
