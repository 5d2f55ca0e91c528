"""The run's crash report: an excepthook that writes the traceback into the run folder before printing it."""

import os
import sys
import traceback


def install_crash_report(run_dir: str) -> None:
    report = os.path.join(run_dir, "crash", "traceback.txt")

    def write_report(exc_type, exc, tb) -> None:
        with open(report, "w") as f:
            f.write("".join(traceback.format_exception(exc_type, exc, tb)))
        sys.__excepthook__(exc_type, exc, tb)

    sys.excepthook = write_report
