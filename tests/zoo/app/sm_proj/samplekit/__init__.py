"""samplekit: the data side of a small intent classifier (datasets, samplers, collation)."""
