"""A small plain-torch training library: config from the environment, data with a custom sampler and collate,
a training loop with AMP on CPU, a scheduler and checkpoints."""
