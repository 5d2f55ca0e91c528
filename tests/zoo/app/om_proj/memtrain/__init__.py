"""om_proj: a small CPU training program that holds itself (and its loader workers) to a memory budget."""
