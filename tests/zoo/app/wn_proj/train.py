"""warnkit's entry: `python train.py --case NAME` (crashmatrix passes it as `--case=NAME`)."""

import argparse

from warnkit.train import CASES, run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--case", required=True, choices=sorted(CASES))
    run(parser.parse_args().case)


if __name__ == "__main__":
    main()
