-- kind=acquire want=command at=1:19
return redis.call('script', 'flush')
