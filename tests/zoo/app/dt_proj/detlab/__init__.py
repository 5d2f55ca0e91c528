"""detlab: a small hand-written detector (no torchvision): boxes, data, heads, losses, engine."""
