"""A small trainer whose objects' lifetimes decide when and where it fails (mapped shards, spill files, a weak
feature cache, gc telemetry)."""
