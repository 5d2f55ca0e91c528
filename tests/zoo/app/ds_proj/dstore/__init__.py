"""A small training program whose data live in stores: LMDB environments and PNG folders."""
