"""Entry: `PYTHONPATH=src python scripts/train_seg.py case=NAME workers=2 log_every=1` from vi_proj/."""

import sys

from segkit.train import main

if __name__ == "__main__":
    main(dict(a.split("=", 1) for a in sys.argv[1:]))
