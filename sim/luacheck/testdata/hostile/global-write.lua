-- kind=acquire want=assign at=1:1
x = 1
return x
