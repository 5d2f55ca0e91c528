"""xt_proj: a small image classifier with its own C++ operators (xtops/kernels.cpp, built by load_inline)."""
