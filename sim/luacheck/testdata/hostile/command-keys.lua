-- kind=release want=command at=1:19
return redis.call('KEYS', '*')
