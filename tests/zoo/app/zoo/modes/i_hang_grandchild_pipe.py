"""Data preparation runs a shell step with subprocess.run(..., capture_output=True); the step starts a
background cache server (`sleep 90 &` stands in for it) without redirecting its output, so the server holds
the write end of the captured stdout pipe. The shell exits at once, but run() waits for end-of-file on the
pipe, which comes only when the server exits."""

import subprocess

STEP = "echo 'shards indexed'; sleep 90 &"


def prepare() -> str:
    done = subprocess.run(["bash", "-c", STEP], capture_output=True, text=True, check=True)
    return done.stdout


def main() -> None:
    print("preparing the data (with a background cache server)", flush=True)
    out = prepare()
    print(out, flush=True)
