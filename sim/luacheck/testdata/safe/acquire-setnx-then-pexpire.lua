-- kind=acquire
-- acquire: SETNX, then PEXPIRE as a second command
if redis.call('SETNX', KEYS[1], ARGV[1]) == 0 then
  return false
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 'OK'
