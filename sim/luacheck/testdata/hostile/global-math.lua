-- kind=acquire want=global
return math.huge
