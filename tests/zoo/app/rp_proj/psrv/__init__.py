"""A small parameter-server trainer: ranks coordinate through torch.distributed.rpc and c10d stores."""
