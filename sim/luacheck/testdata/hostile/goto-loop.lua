-- kind=acquire want=goto at=1:1
::top::
redis.call('INCR', KEYS[1])
goto top
