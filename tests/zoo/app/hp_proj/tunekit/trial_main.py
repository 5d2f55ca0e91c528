"""A trial as a child process: `python -m tunekit.trial_main CONFIG.json`; prints its result as JSON."""

from __future__ import annotations

import json
import sys

from tunekit.trial import run_trial


def main() -> None:
    with open(sys.argv[1]) as f:
        config = json.load(f)
    result = run_trial(config)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
