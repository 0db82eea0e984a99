-- kind=acquire want=table at=1:8
return {1, 2, 3}
