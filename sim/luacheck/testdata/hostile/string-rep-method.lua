-- kind=acquire want=method at=1:18
local s = ARGV[1]:rep(1e9)
return s
