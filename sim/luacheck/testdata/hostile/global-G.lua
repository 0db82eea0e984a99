-- kind=acquire want=global
_G.x = 1
