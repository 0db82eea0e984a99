-- kind=acquire want=method
return ('x'):rep(2^30)
