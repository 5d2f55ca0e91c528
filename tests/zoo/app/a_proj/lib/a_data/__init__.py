"""a_proj's data pipeline: datasets over files on disk, transforms, a nested-dict collate, a prefetcher."""
