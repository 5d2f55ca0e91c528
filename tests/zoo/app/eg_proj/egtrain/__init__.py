"""A small training program whose failures travel through Python's exception machinery (eg_proj)."""
