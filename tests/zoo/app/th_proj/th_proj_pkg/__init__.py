"""th_proj: a small CPU training program that leans on threads: a staging thread, threaded heads, loader workers."""
