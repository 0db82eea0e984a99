-- kind=acquire want=goto at=2:1
local x = 1
goto done
