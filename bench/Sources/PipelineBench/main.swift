// Skeleton: replaced by the owner of this benchmark.
print("PipelineBench: not built yet")
