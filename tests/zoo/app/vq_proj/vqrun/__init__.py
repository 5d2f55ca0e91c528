"""vq_proj: a small image/feature training project whose failures reach the log in its own logging format."""
