"""The corpus preparation step of wn_child_pythonwarnings_env, run as its own `python` child."""

import locale
import sys


def encoding() -> str:
    return locale.getdefaultlocale()[1] or "utf-8"


def main(out: str) -> None:
    enc = encoding()
    with open(out, "w", encoding=enc) as f:
        for i in range(100):
            f.write(f"sentence {i}\n")
    print(f"wrote {out} ({enc})", flush=True)


if __name__ == "__main__":
    main(sys.argv[1])
