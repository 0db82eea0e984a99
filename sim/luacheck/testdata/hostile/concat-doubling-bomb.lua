-- kind=acquire want=concat-bomb at=5:13
local a = ARGV[1] .. ARGV[1]
local b = a .. a
local c = b .. b
local d = c .. c
local e = d .. d
local f = e .. e
local g = f .. f
local h = g .. g
local i = h .. h
local j = i .. i
local k = j .. j
local l = k .. k
local m = l .. l
local n = m .. m
local o = n .. n
local p = o .. o
local q = p .. p
local r = q .. q
local s = r .. r
local t = s .. s
local u = t .. t
return redis.call('SET', KEYS[1], u)
