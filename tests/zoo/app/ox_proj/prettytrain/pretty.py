"""A "pretty" sys.excepthook: the exception's type in bold red, its message, its notes, and only the
innermost frame (the full traceback is noise, says the README), coloured even when stderr is a file."""

import os
import sys
import traceback

RED, DIM, RESET = "\x1b[1;31m", "\x1b[2m", "\x1b[0m"


def _short(filename: str) -> str:
    for marker in ("site-packages" + os.sep, "ox_proj" + os.sep):
        if marker in filename:
            return filename.split(marker, 1)[1]
    return filename


def hook(tp, exc, tb) -> None:
    frames = traceback.extract_tb(tb)
    out = sys.stderr
    out.write(f"{RED}\u2717 {tp.__name__}{RESET}: {exc}\n")
    for note in getattr(exc, "__notes__", []):
        out.write(f"  {DIM}note:{RESET} {note}\n")
    if frames:
        last = frames[-1]
        out.write(f"  {DIM}at {_short(last.filename)}:{last.lineno} in {last.name}{RESET}\n")
    cause = exc.__cause__ or exc.__context__
    while cause is not None:
        frames = traceback.extract_tb(cause.__traceback__)
        where = f" {DIM}at {_short(frames[-1].filename)}:{frames[-1].lineno}{RESET}" if frames else ""
        out.write(f"  {RED}caused by{RESET} {type(cause).__name__}: {cause}{where}\n")
        cause = cause.__cause__ or cause.__context__
    out.write(f"  {DIM}(traceback shortened; PRETTYTRAIN_FULL_TB=1 shows it){RESET}\n")
    out.flush()


def install() -> None:
    if not os.environ.get("PRETTYTRAIN_FULL_TB"):
        sys.excepthook = hook
