-- kind=acquire want=index at=1:26
return redis.call('GET', KEYS[3])
