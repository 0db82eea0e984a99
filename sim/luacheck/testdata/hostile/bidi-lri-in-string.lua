-- kind=release want=bidi at=1:21
if ARGV[1] == 'admin⁦ -- ⁩' then return 1 end
