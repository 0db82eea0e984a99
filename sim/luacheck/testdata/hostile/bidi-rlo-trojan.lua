-- kind=release want=bidi at=1:21
-- check the holder ‮} ⁦if (false)⁩ ⁦
return redis.call('DEL', KEYS[1])
