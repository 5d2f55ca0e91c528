"""A small data pipeline: shards, tables, audio windows, variable-length token sequences."""
