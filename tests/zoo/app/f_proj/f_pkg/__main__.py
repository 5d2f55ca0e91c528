import faulthandler
import sys

from f_pkg.config import parse
from f_pkg.train import fit


def main() -> None:
    faulthandler.enable()
    cfg = parse(sys.argv[1:])
    print(f"config: {cfg}", flush=True)
    fit(cfg)


if __name__ == "__main__":
    main()
