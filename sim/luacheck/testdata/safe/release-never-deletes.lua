-- kind=release
-- a release that forgets to delete
local holder = redis.call('GET', KEYS[1])
return 0
