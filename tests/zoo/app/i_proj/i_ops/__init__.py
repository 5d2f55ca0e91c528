"""The project's native helpers: i_ops.native builds csrc/*.c with gcc at first use and loads it with ctypes."""
