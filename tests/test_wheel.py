"""A wheel carries everything a run needs: installed (not editable) into a fresh venv, crashmatrix
runs an `inject: true` cell from a directory outside the repository, and the cell sees its knobs."""

import json
import os
import subprocess

import pytest
from conftest import only_cell_stdout
from installed import build_wheel, install_editable, install_wheel, pyproject_version

pytestmark = pytest.mark.slow  # a wheel built and installed


def test_the_wheel_installed_in_a_fresh_venv_runs_an_inject_cell(tmp_path):
    python = install_wheel(tmp_path)
    where = subprocess.run(
        [python, "-c", "import crashmatrix; print(crashmatrix.__file__)"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    assert where.startswith(str(tmp_path / "venv")), where
    work = tmp_path / "elsewhere"
    work.mkdir()
    (work / "train.py").write_text(
        "import json, multiprocessing as mp, resource, sys\n"
        "print(json.dumps([sys.argv[1:], mp.get_start_method(),"
        " resource.getrlimit(resource.RLIMIT_NOFILE)[0]]))\n"
    )
    (work / "m.yaml").write_text(
        "name: wheel\ncommand: [python, train.py]\ninject: true\n"
        "axes:\n  start_method: [spawn]\n  rlimit.nofile: [250]\n  lr: [0.5]\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    proc = subprocess.run(
        [str(tmp_path / "venv" / "bin" / "crashmatrix"), "run", "m.yaml", "--out", "run"],
        cwd=work,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(only_cell_stdout(work / "run")) == [["lr=0.5"], "spawn", 250]
    # installed, the version is the distribution's, from its metadata
    version = subprocess.run(
        [str(tmp_path / "venv" / "bin" / "crashmatrix"), "--version"], cwd=work, env=env, capture_output=True, text=True
    )
    assert (version.returncode, version.stdout) == (0, f"crashmatrix {pyproject_version()}\n"), version.stderr


def test_the_wheel_installs_no_top_level_package_but_crashmatrix_and_its_hydra_plugins(tmp_path):
    # `runner` and `probes` are the repository's folders; installed under those names they would
    # collide with a user's own packages in the very environment being debugged. hydra_plugins is
    # Hydra's namespace package: ours is one folder in it, and it has no __init__.py of ours.
    import zipfile

    with zipfile.ZipFile(build_wheel(tmp_path)) as wheel:
        names = [name for name in wheel.namelist() if not name.split("/")[0].endswith(".dist-info")]
    assert {name.split("/")[0] for name in names} == {"crashmatrix", "hydra_plugins"}
    assert {name.split("/")[1] for name in names if name.startswith("hydra_plugins/")} == {"crashmatrix_plugins"}


def _sweep_app(tmp_path):
    """(tests/apps/hydra_sweep copied into tmp_path, an environment that sees only the installed crashmatrix)."""
    import shutil

    from conftest import ROOT

    app = tmp_path / "app"
    shutil.copytree(os.path.join(ROOT, "tests", "apps", "hydra_sweep"), app)
    return app, {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}


def test_hydra_finds_the_wheels_launcher_and_a_sweep_runs_under_it(tmp_path):
    from conftest import rows_of

    python = install_wheel(tmp_path)
    app, env = _sweep_app(tmp_path)
    plugins = subprocess.run(
        [python, "app.py", "--info", "plugins"], cwd=app, env=env, capture_output=True, text=True, check=True
    ).stdout
    assert "CrashmatrixLauncher" in plugins
    proc = subprocess.run(
        [python, "app.py", "-m", "hydra/launcher=crashmatrix", "hydra.sweep.dir=sweep", "a=0,2"],
        cwd=app,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1, proc.stderr  # a=2 raises: Hydra's exit status for a failed job
    assert "ValueError: a=2 is refused on purpose" in proc.stderr
    rows = rows_of(app / "sweep")
    assert sorted((r["a"], r["outcome"], r["error"]) for r in rows) == [
        ("0", "pass", ""),
        ("2", "fail", "ValueError: a=2 is refused on purpose"),
    ]


def test_hydra_finds_the_plugins_of_an_editable_install(tmp_path):
    # Hydra lists the folders of the namespace package hydra_plugins; an editable install whose package
    # list named only hydra_plugins.crashmatrix_plugins gave it none (pyproject.toml says why).
    python = install_editable(tmp_path)
    app, env = _sweep_app(tmp_path)
    where = subprocess.run(
        [python, "-c", "import crashmatrix; print(crashmatrix.__file__)"],
        cwd=app,
        env=env,
        capture_output=True,
        text=True,
    ).stdout
    assert where.startswith(str(tmp_path / "src" / "runner")), where  # the copy, edited in place
    # both config groups compose, as they do for a multirun (-m): Hydra found the plugins' module
    done = subprocess.run(
        [python, "app.py", "--cfg", "hydra", "hydra/launcher=crashmatrix", "hydra/sweeper=crashmatrix"],
        cwd=app,
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert "crashmatrix_plugins.launcher.CrashmatrixLauncher" in done.stdout, done.stdout
    assert "crashmatrix_plugins.sweeper.CrashmatrixSweeper" in done.stdout, done.stdout
