"""`crashmatrix init APP.py`: a starter matrix from a real Hydra app's config, checked by the real CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from conftest import ROOT, crashmatrix, rows_of

APP = "examples/ocr_app/train.py"
LOADERS = ("train", "val", "test", "predict")


def init(out, app=APP, *extra, env=None):
    return crashmatrix("init", app, "--out", out, *extra, cwd=ROOT, env=env)


@pytest.mark.slow
def test_init_writes_the_app_suspects_as_axes_and_show_accepts_it(tmp_path):
    from crashmatrix.matrix.spec import load_matrix

    out = tmp_path / "m.yaml"
    done = init(out)
    assert done.returncode == 0, done.stderr
    assert f"wrote {out}" in done.stdout
    m = load_matrix(str(out))
    # the script relative to the matrix file, which may sit anywhere: it runs from any directory
    assert m.command == ("python", os.path.relpath(os.path.join(ROOT, APP), tmp_path)) and m.inject
    assert m.strategy == "pairwise"
    assert f"from {os.path.join('examples', 'ocr_app', 'conf', 'config.yaml')} (composed" in out.read_text()
    # Knobs first, from outside; the app's loaders had 0 workers and no pinning, so those lead.
    assert m.axes["start_method"] == ["fork", "spawn", "forkserver"]
    assert m.axes["num_workers"] == [0, 2]
    assert m.axes["pin_memory"] == [False, True]
    assert m.axes["wandb"] == ["disabled", "offline"]
    # The app's own suspects, current value first.
    assert m.axes["log_images"] == [True, False]
    assert m.axes["trainer.precision"] == ["32", "16-mixed", "bf16-mixed"]
    assert m.axes["trainer.benchmark"] == [False, True]
    assert m.axes["trainer.deterministic"] == [False, True]
    assert m.axes["logger.enabled"] == [True, False]
    assert m.axes["logger.mode"] == ["offline", "disabled"]
    assert m.axes["all_persistent_workers"] == [False, True]
    assert m.axis_keys["all_persistent_workers"] == tuple(
        f"data.dataloaders.{s}_dataloader.persistent_workers" for s in LOADERS
    )
    assert len(m.axes) == 11  # nothing else: image_size, batch_size, the fault switch are not suspects by name
    # The app's loader keys for the forced knobs are named in a comment, not passed.
    text = out.read_text()
    assert "data.dataloaders.predict_dataloader.num_workers" in text.split("num_workers: [0, 2]")[0]
    shown = crashmatrix("show", out, "--format", "json", cwd=ROOT)
    assert shown.returncode == 0, shown.stderr
    assert 1 < len(json.loads(shown.stdout)) < 30


def test_init_never_writes_over_a_file(tmp_path):
    out = tmp_path / "m.yaml"
    out.write_text("mine\n")
    done = init(out)
    assert done.returncode == 2
    assert str(out) in done.stderr and "already exists" in done.stderr
    assert out.read_text() == "mine\n"


def _app(tmp_path, source: str, config: str | None = "x: 1\n"):
    app = tmp_path / "app.py"
    app.write_text(source)
    if config is not None:
        (tmp_path / "conf").mkdir()
        (tmp_path / "conf" / "config.yaml").write_text(config)
    return app


HYDRA_APP = 'import hydra\n\n@hydra.main(config_path="conf", config_name="config", version_base=None)\ndef main(cfg):\n    pass\n'


@pytest.mark.parametrize(
    "source, config, reason",
    [
        (None, None, "no such file"),
        ("print('hello')\n", None, "no @hydra.main"),
        ("def f(:\n", None, "not Python"),
        (HYDRA_APP.replace('config_path="conf"', "config_path=CONF"), "x: 1\n", "config_path as a plain string"),
        (HYDRA_APP.replace('"conf"', '"nowhere"'), "x: 1\n", "no such folder"),
        (HYDRA_APP, "x: [1, 2\n", "does not compose"),
        (HYDRA_APP, "defaults:\n  - model: missing\n", "does not compose"),
    ],
    ids=["missing", "not-hydra", "syntax", "computed-path", "no-folder", "bad-yaml", "missing-group"],
)
@pytest.mark.slow
def test_bad_apps_exit_2_with_one_line_naming_the_file(tmp_path, source, config, reason):
    app = tmp_path / "app.py" if source is None else _app(tmp_path, source, config)
    out = tmp_path / "m.yaml"
    done = init(out, app)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(app) in lines[0] and reason in lines[0], done.stderr
    assert "Traceback" not in done.stderr
    assert not out.exists()


@pytest.mark.slow
def test_a_good_tiny_app_gets_knobs_only(tmp_path):
    app = _app(tmp_path, HYDRA_APP, "lr: 0.1\nloader: {num_workers: 4, pin_memory: true}\n")
    done = init(tmp_path / "m.yaml", app)
    assert done.returncode == 0, done.stderr
    from crashmatrix.matrix.spec import load_matrix

    m = load_matrix(str(tmp_path / "m.yaml"))
    assert list(m.axes) == ["start_method", "num_workers", "pin_memory"]  # no wandb: the app does not use it
    assert m.axes["num_workers"] == [4, 0] and m.axes["pin_memory"] == [True, False]
    assert m.strategy == "full"


@pytest.mark.slow
def test_the_written_matrix_runs_as_written_and_the_app_gets_only_its_own_keys(tmp_path):
    """init's matrix for the real Hydra + Lightning app, cut to two fork cells: no cell is lost to an
    argument the app does not know, a keys axis reaches every loader, knobs never arrive as arguments.
    Fork: nothing here depends on the start method, and each spawned worker would import the whole app again
    (spawned workers of a Hydra app are test_hydra_launcher.py's)."""

    matrix, run = tmp_path / "m.yaml", tmp_path / "run"
    assert init(matrix).returncode == 0
    one_value = [
        "axes.start_method=[fork]",
        "axes.pin_memory=[false]",
        "axes.wandb=[offline]",
        "axes.log_images=[true]",
        "axes.all_persistent_workers.values=[true]",
        "axes.trainer.precision=['32']",
        "axes.trainer.benchmark=[false]",
        "axes.trainer.deterministic=[false]",
        "axes.logger.enabled=[true]",
        "axes.logger.mode=[offline]",
    ]
    done = crashmatrix(
        "run",
        matrix,
        *one_value,
        "strategy=full",
        "+params.stages=[fit]",
        "+params.trainer.max_steps=2",
        "--jobs",
        "2",
        "--out",
        run,
        cwd=ROOT,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr
    rows = rows_of(run)
    assert sorted(r["num_workers"] for r in rows) == ["0", "2"]
    for row in rows:
        cell = run / row["log_dir"]
        stderr = (cell / "stderr.log").read_text(errors="replace")
        assert "Could not override" not in stderr and "not in struct" not in stderr
        assert row["outcome"] == "pass", (row["error"], stderr[-2000:])
        assert float(row["first_batch_s"]) > 0  # an unmodified app gets metrics too (2 steps: no rate)
        # What the app received, as Hydra recorded it: its own keys, every loader's, and no knob.
        received = (cell / "outputs" / ".hydra" / "overrides.yaml").read_text()  # Hydra ran in the cell
        for stage in LOADERS:
            assert f"data.dataloaders.{stage}_dataloader.persistent_workers=true" in received
        for knob in ("start_method", "num_workers", "pin_memory", "wandb"):
            assert f"- {knob}=" not in received
        # The loaders the app built, as it logged them: the forced workers; persistence dropped without workers.
        logged = (cell / "stdout.log").read_text()
        workers = row["num_workers"]
        assert f"train_dataloader: num_workers={workers} pin_memory=False persistent_workers={workers != '0'}" in logged


@pytest.mark.slow
def test_init_imports_neither_torch_nor_hydra_in_the_controller(tmp_path):
    out = str(tmp_path / "m.yaml")
    code = (
        f"import sys; from crashmatrix.cli import main; rc = main(['init', {APP!r}, '--out', {out!r}]); "
        "print(rc, sorted(m for m in ('torch', 'hydra', 'omegaconf', 'pytorch_lightning') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.stdout.split("\n")[-2] == "0 []", done.stdout + done.stderr


TEMPLATE = os.path.join(ROOT, "tests", "apps", "template_app")


@pytest.mark.slow
def test_init_offers_the_template_apps_groups_and_missing_precision_and_its_matrix_runs(tmp_path):
    """The template layout: a logger group null by default with wandb among its options, trainer
    options gpu and ddp, and precision only as a comment. The matrix init writes runs as written
    (preflight included)."""
    import shutil

    from crashmatrix.matrix.spec import load_matrix

    app = tmp_path / "app"
    shutil.copytree(TEMPLATE, app)
    matrix = tmp_path / "m.yaml"
    assert init(matrix, app / "src" / "train.py", "--gpus-per-cell", "4").returncode == 0  # ddp's 4 GPUs
    text = matrix.read_text()
    assert f"from {os.path.relpath(app / 'configs' / 'train.yaml', ROOT)} (composed" in text.splitlines()[0]
    m = load_matrix(str(matrix))
    assert m.axes["logger"] == ["csv", "wandb"]  # the app picks none; csv is no suspect, wandb is
    assert m.axes["trainer"] == ["default", "ddp", "gpu"]  # beside trainer.deterministic: Hydra's grammar
    assert m.axes["+trainer.precision"] == ["32", "16-mixed", "bf16-mixed"]
    assert "only a comment in configs/trainer/default.yaml" in text
    one_value = ["axes.start_method=[fork]", "axes.num_workers=[0]", "axes.pin_memory=[false]"]
    one_value += ["axes.data.loader.persistent_workers=[false]", "axes.trainer.deterministic=[false]"]
    one_value += ["axes.trainer=[default]", "axes.logger=[wandb]", "strategy=full"]
    # one precision runs (a key the app's config lacks, reaching it through `+`): a Lightning cell costs
    # seconds of CPU, and Lightning's own check of each value is not crashmatrix's to test
    one_value += ["axes.+trainer.precision=[16-mixed]"]
    run = tmp_path / "run"
    done = crashmatrix("run", matrix, *one_value, "--out", run, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    rows = rows_of(run)
    assert [r["+trainer.precision"] for r in rows] == ["16-mixed"]
    for row in rows:
        assert row["outcome"] == "pass", row["error"]
        config = (run / row["log_dir"] / "outputs" / ".hydra" / "config.yaml").read_text()
        assert f"precision: {row['+trainer.precision']}" in config and "WandbLogger" in config


GROUPS_APP = """\
import json

import hydra
from omegaconf import OmegaConf


@hydra.main(config_path="conf", config_name="config", version_base="1.3")
def main(cfg):
    print(json.dumps(OmegaConf.to_container(cfg)))


if __name__ == "__main__":
    main()
"""


@pytest.mark.slow
def test_a_nested_group_and_a_null_group_become_axes_that_pick_options(tmp_path):
    files = {
        "conf/config.yaml": "defaults:\n  - _self_\n  - logger: null\n  - system/device: cpu\nx: 1\n",
        "conf/logger/wandb.yaml": "wandb: {offline: true}\n",
        "conf/logger/tensorboard.yaml": "tb: {dir: tb}\n",
        "conf/system/device/cpu.yaml": "kind: cpu\n",
        "conf/system/device/cuda.yaml": "kind: cuda  # a GPU\n",
        "conf/system/device/notes.yaml": "kind: cpu  # no gpu mentioned outside comments\n",
        "app.py": GROUPS_APP,
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    from crashmatrix.matrix.spec import load_matrix

    assert init(tmp_path / "m.yaml", tmp_path / "app.py").returncode == 0
    m = load_matrix(str(tmp_path / "m.yaml"))
    assert m.axes["logger"] == ["tensorboard", "wandb"]
    assert m.axes["system/device"] == ["cpu", "cuda"]
    one = ["axes.start_method=[fork]", "axes.num_workers=[0]", "axes.pin_memory=[false]"]
    done = crashmatrix("run", tmp_path / "m.yaml", *one, "--jobs", "2", "--out", tmp_path / "run", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    seen = set()
    for row in rows_of(tmp_path / "run"):
        assert row["outcome"] == "pass", row["error"]
        cfg = json.loads((tmp_path / "run" / row["log_dir"] / "stdout.log").read_text().splitlines()[-1])
        seen.add((next(iter(cfg["logger"])), cfg["system"]["device"]["kind"]))
    assert seen == {("tb", "cpu"), ("tb", "cuda"), ("wandb", "cpu"), ("wandb", "cuda")}


GPU_APP = os.path.join(ROOT, "tests", "apps", "gpu_trainer_app")


def _no_gpu_here() -> dict | None:
    """The environment under which no GPU is visible: none needed where the machine shows none by itself."""
    import glob
    import shutil

    shown = glob.glob("/dev/nvidia[0-9]*") or glob.glob("/proc/driver/nvidia/gpus/*") or shutil.which("nvidia-smi")
    return {"CUDA_VISIBLE_DEVICES": ""} if shown else None


@pytest.mark.slow
def test_init_on_a_gpu_app_without_a_gpu_offers_what_runs_here_and_it_runs(tmp_path):
    """The app's default trainer asks for 2 GPUs (configs/trainer/gpu.yaml); its DataLoaders pin memory
    and keep their workers in code (src/datamodule.py). Alone it fails here. init says so, fixes the
    trainer to the CPU in params, starts pin_memory and persistent_workers at the app's own values, and
    the cells of its matrix pass as written."""
    import shutil

    from crashmatrix.matrix.spec import load_matrix

    app = tmp_path / "app"
    shutil.copytree(GPU_APP, app)
    env = _no_gpu_here()
    alone = subprocess.run(
        [sys.executable, app / "src" / "train.py", f"hydra.run.dir={tmp_path / 'alone'}"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, **(env or {})},
        check=False,
    )
    assert alone.returncode != 0 and "No supported gpu backend found" in alone.stderr, alone.stderr[-2000:]

    matrix = tmp_path / "m.yaml"
    done = init(matrix, app / "src" / "train.py", env=env)
    assert done.returncode == 0, done.stderr
    said = done.stderr.splitlines()
    assert len(said) == 2 and all(line.startswith("crashmatrix init: ") for line in said), said
    assert "asks for 2 GPUs (trainer.accelerator=gpu, trainer.devices=2; the app's choice trainer=gpu)" in said[0]
    assert "has no GPU" in said[0] and "set trainer.accelerator=cpu, trainer.devices=1" in said[0]
    assert "trainer=ddp asks for 4 GPUs: left out of the trainer axis" in said[1]
    m = load_matrix(str(matrix))
    assert m.params == {"trainer.accelerator": "cpu", "trainer.devices": 1}
    text = matrix.read_text()
    assert "every cell would fail" in text.split("params:")[0]
    # The app's own values first: 2 workers from its config, pinning and persistence from its code.
    assert m.axes["num_workers"] == [2, 0]
    assert m.axes["pin_memory"] == [True, False] and m.axes["persistent_workers"] == [True, False]
    assert "pin_memory: true at src/datamodule.py:29" in text
    comments = " ".join(line.strip().lstrip("#").strip() for line in text.splitlines())
    assert m.axes["trainer"] == ["gpu"] and "Left out: ddp (4 GPUs)" in comments
    assert "Where a cell has them: [gpu, ddp]" in comments

    one_value = ["axes.start_method=[fork]", "axes.num_workers=[2]", "axes.pin_memory=[true]"]
    one_value += ["axes.persistent_workers=[true]", "axes.+trainer.precision=[bf16-mixed]", "strategy=full"]
    run = tmp_path / "run"
    done = crashmatrix("run", matrix, *one_value, "--out", run, cwd=tmp_path, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    rows = rows_of(run)
    assert len(rows) == 1
    for row in rows:
        assert row["outcome"] == "pass", row["error"]
        out = (run / row["log_dir"] / "stdout.log").read_text()
        assert "trainer: accelerator=CPUAccelerator devices=1" in out
        assert "train loader: num_workers=2 pin_memory=True persistent_workers=True" in out
        received = (run / row["log_dir"] / "outputs" / ".hydra" / "overrides.yaml").read_text()
        assert "trainer.accelerator=cpu" in received and "pin_memory" not in received


@pytest.mark.parametrize(
    "gpus, params, trainer, notes",
    [
        ("0", {"trainer.accelerator": "cpu", "trainer.devices": 1}, ["gpu"], 2),
        ("1", {"trainer.devices": 1}, ["gpu"], 2),
        ("2", {}, ["gpu"], 1),  # the app's own trainer fits; ddp's 4 do not
        ("4", {}, ["gpu", "ddp"], 0),
    ],
)
@pytest.mark.slow
def test_init_fits_the_app_to_the_gpus_a_cell_will_have(tmp_path, gpus, params, trainer, notes):
    """--gpus-per-cell: a matrix written on a login node for GPU nodes, or on a smaller box."""
    from crashmatrix.matrix.spec import load_matrix

    done = init(tmp_path / "m.yaml", os.path.join(GPU_APP, "src", "train.py"), "--gpus-per-cell", gpus)
    assert done.returncode == 0, done.stderr
    assert len(done.stderr.splitlines()) == notes, done.stderr
    m = load_matrix(str(tmp_path / "m.yaml"))
    assert m.params == params and m.axes["trainer"] == trainer


@pytest.mark.slow
def test_init_reads_knobs_from_the_modules_the_app_imports_and_no_others(tmp_path):
    files = {
        "pyproject.toml": "[project]\nname = 'x'\n",
        "conf/config.yaml": "lr: 0.1\n",
        "scripts/app.py": "from mypkg.loaders import make\n" + HYDRA_APP.replace('"conf"', '"../conf"'),
        "mypkg/__init__.py": "",
        "mypkg/loaders.py": (
            "import torch.utils.data as tud\n\ndef make(ds):\n"
            "    return tud.DataLoader(ds, num_workers=4, pin_memory=True, prefetch_factor=4)\n\n"
            "def wrap(model):\n"
            "    from torch.nn.parallel import DistributedDataParallel as DDP\n"
            "    return DDP(model, find_unused_parameters=True, bucket_cap_mb=50)\n"
        ),
        "mypkg/unused.py": "from torch.utils.data import DataLoader\nDataLoader([], pin_memory=False, num_workers=16)\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    from crashmatrix.matrix.spec import load_matrix

    done = init(tmp_path / "m.yaml", tmp_path / "scripts" / "app.py", "--gpus-per-cell", "0")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    m = load_matrix(str(tmp_path / "m.yaml"))
    assert m.axes["num_workers"] == [4, 0] and m.axes["pin_memory"] == [True, False]
    assert m.axes["prefetch_factor"] == [4, 2] and "persistent_workers" not in m.axes
    assert "mypkg/loaders.py:4" in (tmp_path / "m.yaml").read_text()
    # DDP's own knobs as the app's code sets them, its value first
    assert m.axes["ddp.find_unused_parameters"] == [True, False] and m.axes["ddp.bucket_cap_mb"] == [50, 25]
    assert "ddp.static_graph" not in m.axes and "mypkg/loaders.py:8" in (tmp_path / "m.yaml").read_text()


def test_init_gpus_per_cell_must_be_a_count(tmp_path):
    done = init(tmp_path / "m.yaml", os.path.join(GPU_APP, "src", "train.py"), "--gpus-per-cell", "-1")
    assert done.returncode == 2 and done.stderr.strip().count("\n") == 0 and "--gpus-per-cell" in done.stderr
    assert not (tmp_path / "m.yaml").exists()


def test_an_app_edited_since_it_was_read_is_read_again(tmp_path):
    # find_hydra_main keeps what it parsed by the file's time and size: a script that gains its @hydra.main is
    # an app the next time it is asked, and one that loses it is not
    from crashmatrix.app.hydra_main import find_hydra_main
    from crashmatrix.errors import BadInput

    app = tmp_path / "train.py"
    (tmp_path / "conf").mkdir()
    app.write_text("def main():\n    pass\n")
    with pytest.raises(BadInput, match="no @hydra.main"):
        find_hydra_main(str(app))
    app.write_text('import hydra\n\n\n@hydra.main(config_path="conf", config_name="train")\ndef main(cfg):\n    pass\n')
    assert find_hydra_main(str(app)).config_name == "train"
    app.write_text("def main():\n    pass\n")
    with pytest.raises(BadInput, match="no @hydra.main"):
        find_hydra_main(str(app))
