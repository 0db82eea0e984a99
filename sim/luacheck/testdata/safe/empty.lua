-- kind=release

