"""A cell's files are its own: concurrent cells never share a directory, the user's tree stays as it was.

The template app (tests/apps/template_app) runs unmodified, with crashmatrix installed from a wheel;
its Hydra run directory is timestamped to the second, so without crashmatrix's own directory per
cell, cells started together would write into one.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile

import pytest
from conftest import ROOT, crashmatrix, rows_of
from installed import install_wheel

pytestmark = pytest.mark.slow  # real cells writing files

APPS = os.path.join(ROOT, "tests", "apps")
TEMPLATE = os.path.join(APPS, "template_app")


def tree(root) -> dict:
    """Every file and folder under root, with each file's content hash: what a run must not change."""
    found = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs:
            found[os.path.relpath(os.path.join(folder, name), root) + "/"] = ""
        for name in files:
            path = os.path.join(folder, name)
            with open(path, "rb") as f:
                found[os.path.relpath(path, root)] = hashlib.sha1(f.read()).hexdigest()
    return found


def test_concurrent_cells_of_the_template_app_write_into_their_own_cell_directories(tmp_path):
    python = install_wheel(tmp_path)
    app = tmp_path / "template_app"
    shutil.copytree(TEMPLATE, app)
    before = tree(app)
    run = tmp_path / "run"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONDONTWRITEBYTECODE")}
    # From inside the app's tree, as a user would; its two loggers' cells started at once, in the same second.
    done = subprocess.run(
        [os.path.join(os.path.dirname(python), "crashmatrix"), "run", "crash.yaml", "axes.start_method=[fork]"]
        + ["axes.num_workers=[2]", "--jobs", "2", "--out", str(run)],
        cwd=app,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    rows = rows_of(run)
    assert len(rows) == 2 and {r["outcome"] for r in rows} == {"pass"}, [(r["outcome"], r["error"]) for r in rows]
    printed = set()
    for row in rows:
        outputs = run / row["log_dir"] / "outputs"
        # The app says where Hydra put it: the cell's own outputs/.
        (line,) = [ln for ln in (run / row["log_dir"] / "stdout.log").read_text().splitlines() if "output_dir=" in ln]
        printed.add(line.split("=", 1)[1])
        assert line == f"output_dir={outputs}"
        assert (outputs / ".hydra" / "config.yaml").is_file()
        assert (outputs / "checkpoints" / "last.ckpt").is_file()
        wandb_runs = list((outputs / "wandb").glob("offline-run-*")) if (outputs / "wandb").exists() else []
        assert len(wandb_runs) == (1 if row["logger"] == "wandb" else 0)
    assert len(printed) == 2  # N cells, N directories
    assert tree(app) == before  # nothing written in the user's tree: no logs/, no wandb/, no __pycache__
    html = (run / "report.html").read_text()
    for row in rows:
        assert f'<a href="{row["log_dir"]}/outputs/">outputs</a>' in html


HYDRA_TINY = os.path.join(APPS, "hydra_tiny", "app.py")


def test_a_hydra_run_dir_the_matrix_sets_is_the_users_choice(tmp_path):
    mine = tmp_path / "mine"
    (tmp_path / "m.yaml").write_text(
        f"name: chosen\ncommand: [python, {HYDRA_TINY}]\nparams:\n  hydra.run.dir: {mine}\naxes:\n  mode: [ok]\n"
    )
    assert crashmatrix("run", "m.yaml", "--out", "run", cwd=tmp_path).returncode == 0
    (row,) = rows_of(tmp_path / "run")
    assert row["outcome"] == "pass"
    assert (mine / ".hydra" / "overrides.yaml").is_file()
    assert not (tmp_path / "run" / row["log_dir"] / "outputs").exists()
    # ...and without it, each cell's Hydra directory is its own, with a name no shell would like.
    odd = tmp_path / "it's a run, =$x"
    (tmp_path / "n.yaml").write_text(f"name: own\ncommand: [python, {HYDRA_TINY}]\naxes:\n  mode: [ok, raise]\n")
    assert crashmatrix("run", "n.yaml", "--out", odd, "--jobs", "2", cwd=tmp_path).returncode == 0
    for row in rows_of(odd):
        overrides = (odd / row["log_dir"] / "outputs" / ".hydra" / "overrides.yaml").read_text()
        assert f"- mode={row['mode']}" in overrides
    assert sorted(os.listdir(tmp_path)) == sorted(["m.yaml", "n.yaml", "mine", "run", odd.name])


FORKSERVER = """\
import json, multiprocessing as mp, os, sys, tempfile

def square(x):
    return x * x

if __name__ == "__main__":
    mp.set_start_method("forkserver")
    with mp.Pool(2) as pool:
        assert pool.map(square, [1, 2]) == [1, 4]
    print(json.dumps({"tmp": os.path.realpath(tempfile.gettempdir()), "wandb": os.environ.get("WANDB_DIR")}))
"""


@pytest.mark.parametrize("chosen", [False, True], ids=["cell-tmp", "matrix-env"])
def test_a_long_cell_path_still_takes_forkserver_sockets_and_the_matrix_env_wins(tmp_path, chosen):
    """multiprocessing's forkserver makes a socket in TMPDIR, and a socket's path holds 107 bytes."""
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    (tmp_path / "pool.py").write_text(FORKSERVER)
    # The user's own TMPDIR, short as a socket needs (and no pytest folder: another session may prune those)
    mine = tempfile.mkdtemp(prefix="cellfiles-test-", dir="/tmp")
    env_block = f"env: {{TMPDIR: {mine}, WANDB_DIR: {mine}}}\n" if chosen else ""
    (tmp_path / "m.yaml").write_text(f"name: deep\ncommand: [python, pool.py]\naxes:\n  x: [1, 2]\n{env_block}")
    done = crashmatrix("run", "m.yaml", "--out", deep / "run", "--jobs", "2", cwd=tmp_path)
    shutil.rmtree(mine)
    assert done.returncode == 0, done.stderr
    for row in rows_of(deep / "run"):
        cell = deep / "run" / row["log_dir"]
        assert row["outcome"] == "pass", (cell / "stderr.log").read_text()[-2000:]
        seen = json.loads((cell / "stdout.log").read_text().splitlines()[-1])
        want = mine if chosen else str(cell)
        assert (seen["tmp"], seen["wandb"]) == (want if chosen else str(cell / "tmp"), want)
    assert _links_into(deep) == []  # the short links to the cells' tmp/ are gone with the cells


def _links_into(folder) -> list[str]:
    """Links in the temporary folder that point into `folder` (other sessions' runs make their own, and
    remove them: one can go between the listing and its reading)."""
    tmp = tempfile.gettempdir()
    found = []
    for name in os.listdir(tmp):
        if not name.startswith("cm-"):
            continue
        try:
            target = os.readlink(os.path.join(tmp, name))
        except OSError:  # not a link, or gone since the listing
            continue
        if target.startswith(str(folder)):
            found.append(name)
    return found


@pytest.mark.parametrize(
    "path",
    ["/r/cells/ab-r0/outputs", "/r/a b/outputs", "/r/it's/x", "/r/a,b=c/[x]", "/r/$HOME/${x}", "/r/back\\slash\\"],
)
def test_a_cell_directory_reaches_hydra_as_written(path):
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from omegaconf import OmegaConf

    from crashmatrix.rundir.cell_files import quote

    value = OverridesParser.create().parse_override(f"hydra.run.dir={quote(path)}").value()
    assert OmegaConf.create({"d": value}).d == path


CUDA_APP = """\
import os, tempfile

import hydra
from hydra.core.hydra_config import HydraConfig


@hydra.main(version_base=None, config_path=None)
def main(cfg):
    where = [HydraConfig.get().runtime.output_dir, os.path.realpath(tempfile.gettempdir()), os.environ["WANDB_DIR"]]
    print("dirs=" + "|".join(where))
    # PyTorch's text for an asynchronous CUDA error (the GPU is the one thing mocked here)
    raise RuntimeError("CUDA error: device-side assert triggered\\nFor debugging consider passing CUDA_LAUNCH_BLOCKING=1")


if __name__ == "__main__":
    main()
"""


def test_a_cuda_error_cells_synchronous_rerun_writes_into_sync_not_over_the_first_run(tmp_path):
    (tmp_path / "app.py").write_text(CUDA_APP)
    (tmp_path / "m.yaml").write_text("name: cuda\ncommand: [python, app.py]\naxes:\n  +lr: [0.1]\n")
    assert crashmatrix("run", "m.yaml", "--out", "run", cwd=tmp_path).returncode == 0
    (row,) = rows_of(tmp_path / "run")
    assert row["outcome"] == "cuda_error"
    cell = tmp_path / "run" / row["log_dir"]

    def dirs(folder):
        (line,) = [ln for ln in (folder / "stdout.log").read_text().splitlines() if ln.startswith("dirs=")]
        return line[5:].split("|")

    assert dirs(cell) == [str(cell / "outputs"), str(cell / "tmp"), str(cell)]
    assert dirs(cell / "sync") == [str(cell / "sync" / "outputs"), str(cell / "sync" / "tmp"), str(cell / "sync")]
    assert (cell / "outputs" / ".hydra").is_dir() and (cell / "sync" / "outputs" / ".hydra").is_dir()


def test_a_hydra_app_run_as_a_module_gets_its_directories_in_the_cell_too(tmp_path):
    shutil.copytree(os.path.dirname(HYDRA_TINY), tmp_path / "tinyapp")
    (tmp_path / "m.yaml").write_text("name: module\ncommand: [python, -m, tinyapp.app]\naxes:\n  mode: [ok]\n")
    assert crashmatrix("run", "m.yaml", "--out", "run", cwd=tmp_path).returncode == 0
    (row,) = rows_of(tmp_path / "run")
    assert row["outcome"] == "pass", row["error"]
    assert (tmp_path / "run" / row["log_dir"] / "outputs" / ".hydra" / "overrides.yaml").is_file()
    assert sorted(os.listdir(tmp_path)) == ["m.yaml", "run", "tinyapp"]  # no outputs/ where it ran
