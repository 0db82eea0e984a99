-- kind=release want=key at=1:19
redis.call('DEL', 'lock:x')
return 1
