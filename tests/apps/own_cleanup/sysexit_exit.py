"""Train until the target loss, then exit 0 from inside the run's context; the run's __exit__ writes a summary that
cannot be serialised (a datetime)."""

import datetime
import json
import os
import sys
import tempfile


class Run:
    def __init__(self, folder):
        self.folder = folder
        self.summary = {"started": datetime.datetime.now()}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        with open(os.path.join(self.folder, "summary.json"), "w") as f:
            f.write(json.dumps(self.summary))
        return False


def main():
    with Run(tempfile.mkdtemp()) as run:
        loss = 1.0
        for step in range(100):
            loss *= 0.8
            run.summary["loss"] = loss
            if loss < 0.1:
                print(f"target reached at step {step}")
                sys.exit(0)


if __name__ == "__main__":
    main()
