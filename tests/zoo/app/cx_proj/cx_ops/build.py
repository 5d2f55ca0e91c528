"""Builds the project's C++ ops (csrc/ops.cpp) with torch.utils.cpp_extension.load, once, into
TORCH_EXTENSIONS_DIR (the project's .ext_cache/ unless the environment names another)."""

import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
_ext = None


def ops():
    global _ext
    if _ext is None:
        os.environ.setdefault("TORCH_EXTENSIONS_DIR", os.path.join(ROOT, ".ext_cache"))
        from torch.utils.cpp_extension import load

        _ext = load(name="cx_ops_native", sources=[os.path.join(HERE, "csrc", "ops.cpp")], extra_cflags=["-O1"])
    return _ext


if __name__ == "__main__":
    print(ops())
