"""`make venv`: crashmatrix's own .venv, seeing the packages of the interpreter being debugged.

Run by that interpreter (PYTHON): `PYTHON scripts/make_venv.py VENV TORCH_SPEC`.

The venv is made from PYTHON and a .pth in it adds PYTHON's own site folders (site.addsitedir, so
their .pth files count too): a base interpreter, a venv or a conda env alike. `--system-site-packages`
would expose the *base* interpreter's packages, not a venv's, and pip would then install a second
torch. pip sees the torch found through the .pth as installed and leaves it alone; what crashmatrix
needs beyond it goes into VENV only, never into the user's environment. Only where PYTHON has no
torch at all is TORCH_SPEC installed, into VENV.
"""

import os
import shutil
import subprocess
import sys

STAMP = ".python"  # which interpreter VENV was made for: another PYTHON remakes it
PTH = "_crashmatrix_debugged_env.pth"


def site_folders() -> list[str]:
    return [p for p in sys.path if os.path.basename(p.rstrip(os.sep)) in ("site-packages", "dist-packages")]


def make(venv: str) -> str:
    stamp = os.path.join(venv, STAMP)
    if os.path.exists(stamp) and open(stamp).read() == sys.executable:
        return os.path.join(venv, "bin", "python")
    if os.path.realpath(sys.prefix) == os.path.realpath(venv):
        # PYTHON is VENV's own interpreter (`python3` once .venv is activated): it stays as it was made
        return os.path.join(venv, "bin", "python")
    if os.path.exists(venv):
        shutil.rmtree(venv)
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    python = os.path.join(venv, "bin", "python")
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # A .pth runs a line that starts with `import`: the whole list on that one line.
    calls = "; ".join(f"site.addsitedir({folder!r})" for folder in site_folders())
    with open(os.path.join(purelib, PTH), "w") as f:
        f.write(f"import site; {calls}\n")
    with open(stamp, "w") as f:
        f.write(sys.executable)
    return python


def main() -> int:
    venv, torch_spec = sys.argv[1], sys.argv[2]
    python = make(venv)
    probe = "import torch; print(torch.__version__, torch.__file__)"
    found = subprocess.run([python, "-c", probe], capture_output=True, text=True)
    if found.returncode == 0:
        version, where = found.stdout.split()
        print(f"make: using the torch {sys.executable} has: {version} ({os.path.dirname(where)})")
    else:
        print(f"make: {sys.executable} has no torch; installing {torch_spec} into {venv}")
        subprocess.run([python, "-m", "pip", "install", "-q", torch_spec], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
