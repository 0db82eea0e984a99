-- kind=acquire want=index at=1:8
return ARGV[3]
