"""g_vision: synthetic images, a small CNN and an image-grid callback, driven by LightningCLI (main.py)."""
