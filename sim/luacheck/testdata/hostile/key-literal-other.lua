-- kind=release want=key at=1:26
return redis.call('DEL', 'other')
