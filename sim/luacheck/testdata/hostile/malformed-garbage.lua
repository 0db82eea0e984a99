-- kind=acquire want=syntax
return ))((
