"""Device placement, a small model and a loop for dv_proj."""
