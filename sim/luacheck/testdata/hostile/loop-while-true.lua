-- kind=acquire want=loop at=2:1
-- spin forever
while true do end
