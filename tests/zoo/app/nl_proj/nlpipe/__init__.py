"""A small training pipeline whose data goes through numpy, Pillow and scipy's native code."""
