"""`make venv PYTHON=...` uses the torch of the environment being debugged, wherever it lives, and never
installs a second one: two real venvs, each with its own torch, each seen by crashmatrix's .venv and by
the cells it runs.

The two torches are stand-ins (a package named torch with its own version and metadata): installing two
real builds would take minutes and gigabytes. What is tested is which one Python and pip find, and that
is the same for a real torch."""

import os
import subprocess
import sys

import pytest
from conftest import ROOT

pytestmark = pytest.mark.slow  # a real user environment


def _venv_with_torch(where, version: str) -> str:
    # hydra, pandas and the rest come from the tests' own environment through a .pth, as on a box whose
    # venv inherits its base's packages (--system-site-packages); its own torch, in its own
    # site-packages, shadows any other, as a venv's own packages do. Inheriting from the bare base
    # interpreter instead would leave make venv to install every dependency twice (minutes a test).
    # without pip: nothing installs into the debugged environment (make venv's own venv gets one)
    subprocess.run([sys._base_executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = str(where / "bin" / "python")
    site = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    with open(os.path.join(site, "_inherited.pth"), "w") as f:
        f.write("\n".join(p for p in sys.path if p.endswith("site-packages")) + "\n")
    os.makedirs(os.path.join(site, "torch"))
    with open(os.path.join(site, "torch", "__init__.py"), "w") as f:
        f.write(f"__version__ = {version!r}\n")
    dist = os.path.join(site, f"torch-{version.split('+')[0]}.dist-info")
    os.makedirs(dist)
    with open(os.path.join(dist, "METADATA"), "w") as f:
        f.write(f"Metadata-Version: 2.1\nName: torch\nVersion: {version.split('+')[0]}\n")
    with open(os.path.join(dist, "RECORD"), "w") as f:
        f.write("torch/__init__.py,,\n")
    return python


def _make_venv(python: str, venv) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MAKE", "MFLAGS", "VIRTUAL_ENV"))}
    return subprocess.run(
        ["make", "--no-print-directory", "venv", f"PYTHON={python}", f"VENV={venv}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def _torch_seen(venv, tmp_path) -> tuple[str, str]:
    """(the version crashmatrix's venv imports, the version a cell it runs imports)."""
    python = str(venv / "bin" / "python")
    direct = subprocess.run(
        [python, "-c", "import torch; print(torch.__version__)"], capture_output=True, text=True, check=True
    ).stdout.strip()
    matrix = tmp_path / "m.yaml"
    matrix.write_text(
        "name: which\ncommand: [python, -c, 'import torch, sys; print(torch.__version__)']\n"
        "pass_params: none\naxes:\n  a: [1]\n"
    )
    out = tmp_path / f"run-{direct}"
    subprocess.run(
        [python, "-m", "crashmatrix", "run", str(matrix), "--out", str(out)], check=True, capture_output=True
    )
    (stdout,) = out.glob("cells/*/stdout.log")
    return direct, stdout.read_text().strip()


def test_the_venv_sees_the_debugged_environments_torch_and_installs_none(tmp_path):
    venv = tmp_path / "crashmatrix-venv"
    for name, version in (("envA", "2.12.0+fakeA"), ("envB", "2.11.0+fakeB")):
        python = _venv_with_torch(tmp_path / name, version)
        made = _make_venv(python, venv)
        assert made.returncode == 0, made.stdout + made.stderr
        assert f"make: using the torch {python} has: {version}" in made.stdout
        assert _torch_seen(venv, tmp_path) == (version, version)
        purelib = subprocess.run(
            [str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        # No second torch in crashmatrix's venv: neither the package nor its dist-info. Packages that
        # merely depend on torch (torchmetrics, through the dev extra's Lightning) may be installed
        # there where the debugged environment lacks them; they use the debugged torch.
        second_torch = [e for e in os.listdir(purelib) if e == "torch" or e.startswith("torch-")]
        assert not second_torch, os.listdir(purelib)
    # `make` with crashmatrix's venv activated: PYTHON (python3) is the venv's own interpreter. It once
    # removed the venv it was running from, to remake it from itself, and failed with the venv gone.
    again = _make_venv(str(venv / "bin" / "python"), venv)
    assert again.returncode == 0, again.stdout + again.stderr
    (tmp_path / "again").mkdir()
    assert "make: using the torch" in again.stdout and _torch_seen(venv, tmp_path / "again") == (version, version)
