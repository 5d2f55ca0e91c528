"""A small quantisation-aware training package built on tensor subclasses and torch.library custom ops."""
