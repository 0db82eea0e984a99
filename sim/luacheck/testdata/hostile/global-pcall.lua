-- kind=acquire want=global at=1:8
return pcall(redis.call, 'FLUSHALL')
