"""What a program knows about itself: sys.argv, __file__, __name__, its spec, the working directory,
sys.path, the interpreter's flags and warning options; it writes a file relative to its directory."""

import os
import sys

if __name__ == "__main__":
    print("argv", sys.argv)
    print("orig_argv[1:]", sys.orig_argv[1:])
    print("file", __file__, "name", __name__, "spec", __spec__)
    print("cwd", os.getcwd())
    print("path", sys.path)
    print("flags", sys.flags)
    print("warnoptions", sys.warnoptions)
    print("main module", sys.modules["__main__"].__file__)
    with open("argv_app.txt", "w") as f:
        f.write(" ".join(sys.argv[1:]) + "\n")
