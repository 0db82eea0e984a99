-- kind=release want=control at=1:13
return 1 -- [2J
