-- kind=acquire want=syntax
return 'abc
