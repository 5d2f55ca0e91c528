"""exportkit: train a small tagger on the CPU, then ship it with TorchScript or torch.export."""
