"""Fetch, cache and unpack a small dataset before training (dl_proj)."""
