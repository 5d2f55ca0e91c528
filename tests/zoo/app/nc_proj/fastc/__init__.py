"""fastc: a training program with its own C decoder, built with gcc at run time and loaded with ctypes."""
