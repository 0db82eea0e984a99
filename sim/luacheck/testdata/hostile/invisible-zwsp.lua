-- kind=release want=invisible at=1:8
local a​ = 1
