-- kind=acquire want=loop at=1:1
for i = 1, 1e308 do redis.call('INCR', KEYS[1]) end
