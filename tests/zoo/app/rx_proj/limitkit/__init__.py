"""A small trainer's parts: data (a prefetching loader and a shard cache), train, checkpoint."""
