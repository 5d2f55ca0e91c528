"""metakit: tasks, a small net, a MAML inner loop and per-sample gradients with torch.func."""
