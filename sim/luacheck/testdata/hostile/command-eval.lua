-- kind=acquire want=command at=1:19
return redis.call('EVAL', 'while true do end', 0)
