"""npkit: frames (pandas), arrays (numpy) and loaders (torch Datasets) for np_proj's train.py."""
