-- kind=release want=function
return redis.call('GET', KEYS[1], function() end)
