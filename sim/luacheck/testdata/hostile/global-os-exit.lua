-- kind=acquire want=global at=1:1
os.exit(1)
