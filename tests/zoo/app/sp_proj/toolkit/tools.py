"""External tools the trainer runs itself, as research code does: git for the run's name, gzip for the label
archive, sort for the manifest."""

import subprocess


def run_name(out_dir: str) -> str:
    # the version stamp of the code that made the run, taken where the run's outputs go
    sha = subprocess.check_output(["git", "describe", "--always", "--dirty"], cwd=out_dir)
    return f"run-{sha.decode().strip()}"


def read_gz_lines(path: str) -> list[str]:
    # the label archive read through the system's gzip, as text
    out = subprocess.check_output(["gzip", "-c", path], text=True)
    return out.splitlines()


def sort_unique(src: str, dst: str) -> None:
    # the manifest deduplicated with the system's sort, one shell command
    subprocess.run(f"sort -u {src} -o {dst}", shell=True, check=True)
