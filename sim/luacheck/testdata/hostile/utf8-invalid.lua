-- kind=release want=utf8 at=1:9
return 'ÿ'
