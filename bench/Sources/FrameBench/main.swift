// Skeleton: replaced by the owner of this benchmark.
print("FrameBench: not built yet")
