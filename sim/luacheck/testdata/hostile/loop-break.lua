-- kind=release want=loop
if true then break end
