-- kind=acquire want=pcall-arg at=1:33
redis.pcall('PEXPIRE', KEYS[1], not ARGV[2])
