"""segkit: a small segmentation project, images and masks it writes itself, a tiny conv net, per-batch logging."""
