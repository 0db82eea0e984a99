-- kind=release want=bidi at=1:10
return 1 ‏
