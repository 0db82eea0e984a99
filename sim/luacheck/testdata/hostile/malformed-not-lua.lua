-- kind=release want=syntax
SET lock token NX PX 30000
