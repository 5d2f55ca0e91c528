"""The data-preparation scripts (a package: they share common.py)."""
