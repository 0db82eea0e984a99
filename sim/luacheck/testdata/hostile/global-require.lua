-- kind=acquire want=global
local cjson = require('cjson')
