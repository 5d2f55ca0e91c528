"""seedkit: seeding, RNG state save and restore, and a seeded loader with a reproducibility check."""
