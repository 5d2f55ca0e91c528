"""Questions the program asks its user: written for a terminal, asked in a batch job too."""

import getpass
import os


def confirm(question: str) -> bool:
    answer = input(f"{question} [y/N] ")
    return answer.strip().lower() in ("y", "yes")


def tracker_token() -> str:
    token = os.environ.get("BATCHKIT_TRACKER_TOKEN")
    if not token:
        token = getpass.getpass("tracker token (not echoed): ")
    return token
