-- kind=acquire want=field at=1:1
redis.log(redis.LOG_WARNING, 'hi')
