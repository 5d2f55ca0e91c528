"""distkit: expert dispatch with all_to_all, sharded evaluation, resumable training under torchrun."""
