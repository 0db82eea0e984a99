-- kind=release want=global
return server.call('DEL', KEYS[1])
