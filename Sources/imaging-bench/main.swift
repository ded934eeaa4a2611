import Imaging
print("imaging-bench: not yet")
