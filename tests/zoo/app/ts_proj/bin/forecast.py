"""Entry: python bin/forecast.py --task NAME --workers 2 --window 24 [--scale]"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from forecast import train  # noqa: E402


def parse() -> argparse.Namespace:
    p = argparse.ArgumentParser(description="hourly sales forecaster")
    p.add_argument("--task", default="baseline")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--window", type=int, default=24)
    p.add_argument("--scale", action="store_true", help="standardise the features with a scaler fitted on train")
    return p.parse_args()


if __name__ == "__main__":
    train.main(parse())
