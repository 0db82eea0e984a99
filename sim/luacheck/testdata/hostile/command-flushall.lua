-- kind=acquire want=command at=1:12
redis.call('FLUSHALL')
return 1
