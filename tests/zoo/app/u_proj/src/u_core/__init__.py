"""The u_proj project's code: a small classifier of two Gaussian blobs, trained by Lightning."""
