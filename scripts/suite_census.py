"""What `make test` spends its CPU on: per test file, the CPU of the tests and of every process they started,
and how many of those processes imported torch and Lightning.

    .venv/bin/python scripts/suite_census.py [pytest arguments]   (default: the Makefile's -q -n 5 --dist loadfile)

CRASHMATRIX_CENSUS_KEEP=1 keeps what each test wrote (its id, start, wall and CPU, one file a worker).

The suite is bound by CPU (two workers keep two cores busy), and most of that CPU is processes importing torch
(1.7 CPU-s each on the 2-core development machine, Lightning 3.3 more): the count of those imports does not
move with the box's speed, as minutes do. Every process is counted, those killed by a signal too: a `.pth`
in the venv, there only while this runs, notes each process's first import of torch or Lightning.
"""

from __future__ import annotations

import collections
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile

MODULE = "_crashmatrix_census"  # imported by the .pth into every process the venv's interpreter starts
PLUGIN = "_crashmatrix_census_plugin"  # `pytest -p`: each test's CPU, its children's included
SOURCES = {
    MODULE: """\
import os
import sys

OUT = os.environ.get("CRASHMATRIX_CENSUS_DIR")


class _FirstImport:
    seen = set()

    def find_spec(self, name, path=None, target=None):
        if name in ("torch", "pytorch_lightning", "lightning") and name not in self.seen:
            self.seen.add(name)
            test = os.environ.get("PYTEST_CURRENT_TEST", "").split("::")[0]
            try:
                with open(os.path.join(OUT, "imports", f"{os.getpid()}-{name}"), "w") as f:
                    f.write(test)
            except OSError:
                pass
        return None


if OUT and os.path.isdir(os.path.join(OUT, "imports")):
    sys.meta_path.insert(0, _FirstImport())
""",
    PLUGIN: """\
import json
import os
import resource
import time

import pytest


def _cpu():
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    before, start = _cpu(), time.time()
    yield
    took = {"cpu": _cpu() - before, "start": start, "wall": time.time() - start}
    with open(os.path.join(os.environ["CRASHMATRIX_CENSUS_DIR"], "tests", f"{os.getpid()}.jsonl"), "a") as f:
        f.write(json.dumps({"file": item.nodeid.split("::")[0], "test": item.nodeid, **took}) + "\\n")
""",
}


def main(argv: list[str]) -> int:
    site = sysconfig.get_paths()["purelib"]
    out = tempfile.mkdtemp(prefix="suite-census-")
    os.makedirs(os.path.join(out, "imports"))
    os.makedirs(os.path.join(out, "tests"))
    installed = [os.path.join(site, f"{name}.py") for name in SOURCES] + [os.path.join(site, f"{MODULE}.pth")]
    for name, source in SOURCES.items():
        with open(os.path.join(site, f"{name}.py"), "w") as f:
            f.write(source)
    with open(installed[-1], "w") as f:
        f.write(f"import {MODULE}\n")
    try:
        args = argv or ["-q", "-n", "5", "--dist", "loadfile"]
        env = dict(os.environ, CRASHMATRIX_CENSUS_DIR=out)
        status = subprocess.call([sys.executable, "-m", "pytest", "-p", PLUGIN, *args], env=env)
    finally:
        for path in installed:  # the venv as it was, whatever pytest did
            os.remove(path)
    print(report(out))
    if os.environ.get("CRASHMATRIX_CENSUS_KEEP"):  # each test's start, wall and CPU, for a timeline
        print(f"kept: {out}/tests/*.jsonl")
    else:
        shutil.rmtree(out)
    return status


def report(out: str) -> str:
    cpu: collections.Counter = collections.Counter()
    for name in os.listdir(os.path.join(out, "tests")):
        with open(os.path.join(out, "tests", name)) as f:
            for line in f:
                record = json.loads(line)
                cpu[record["file"]] += record["cpu"]
    imports: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for name in os.listdir(os.path.join(out, "imports")):
        with open(os.path.join(out, "imports", name)) as f:
            imports[name.split("-", 1)[1]][f.read() or "(outside any test)"] += 1
    lightning = imports["pytorch_lightning"] + imports["lightning"]
    lines = [f"{'CPU-s':>8} {'torch':>6} {'Lightning':>9}  test file"]
    for file in sorted(set(cpu) | set(imports["torch"]), key=lambda f: -cpu[f]):
        lines.append(f"{cpu[file]:8.1f} {imports['torch'][file]:6d} {lightning[file]:9d}  {file}")
    total_torch, total_lightning = sum(imports["torch"].values()), sum(lightning.values())
    lines.append(f"{sum(cpu.values()):8.1f} {total_torch:6d} {total_lightning:9d}  in all")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
