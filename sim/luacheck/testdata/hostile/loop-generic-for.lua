-- kind=storage want=loop at=2:1
local t = 0
for k, v in next, KEYS do t = t + 1 end
return t
