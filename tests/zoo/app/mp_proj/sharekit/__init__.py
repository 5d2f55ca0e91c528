"""sharekit: token shards read through mmap, feature producers in child processes, a scoring pool."""
