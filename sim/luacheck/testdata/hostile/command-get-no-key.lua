-- kind=acquire want=args
return redis.call('GET')
