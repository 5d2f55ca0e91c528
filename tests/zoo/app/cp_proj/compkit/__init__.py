"""A small classifier trained under torch.compile: model, custom ops and the loop."""
