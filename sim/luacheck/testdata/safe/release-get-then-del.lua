-- kind=release
-- the check and the delete are in one script here, but a learner may
-- still write them as two steps of a design; as a script it is atomic
local holder = redis.call('GET', KEYS[1])
if holder ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1])
