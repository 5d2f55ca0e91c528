"""Preflight: an override a Hydra app would refuse ends run, rerun, bisect and hunt with exit 2 before any cell.

The app (tests/apps/hydra_groups) lays its config out in groups, as the public Hydra + Lightning
templates do: trainer.precision exists only as a comment, the logger group is null by default.
"""

import os
import shutil
import time

import pytest
from conftest import ROOT, crashmatrix, rows_of

APP = os.path.join(ROOT, "tests", "apps", "hydra_groups", "app.py")


def _matrix(tmp_path, body: str, name: str = "m.yaml"):
    path = tmp_path / name
    path.write_text(f"name: pre\ncommand: [python, {APP}]\n{body}")
    return path


def _nothing_ran(tmp_path) -> None:
    # the app's Hydra writes outputs/ where it runs; crashmatrix writes the run directory
    assert not (tmp_path / "outputs").exists()
    assert not (tmp_path / "run").exists()


@pytest.mark.slow
def test_a_key_missing_from_the_config_names_plus_key_within_seconds(tmp_path):
    matrix = _matrix(tmp_path, "params: {trainer.precision: 16}\naxes: {trainer: [default, gpu]}\n")
    start = time.monotonic()
    proc = crashmatrix("run", matrix, "--out", tmp_path / "run", "--jobs", "2", cwd=tmp_path)
    assert time.monotonic() - start < 20
    assert proc.returncode == 2
    first, second = proc.stderr.splitlines()
    assert first == (
        f"crashmatrix: {matrix}: params.trainer.precision: the app's config has no trainer.precision "
        "(with trainer=default); to add it, write +trainer.precision"
    )
    assert second.startswith("  in the cell trainer=default; checked against ") and "--no-preflight" in second
    assert "Traceback" not in proc.stderr and proc.stdout == ""
    _nothing_ran(tmp_path)


@pytest.mark.slow
def test_a_bad_group_choice_lists_the_groups_options(tmp_path):
    matrix = _matrix(tmp_path, "axes:\n  logger: [csv, wandbb]\n")
    proc = crashmatrix("run", matrix, "--out", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[0] == (
        f"crashmatrix: {matrix}: axes.logger: logger=wandbb: no such option; options: csv, wandb"
    )
    _nothing_ran(tmp_path)


@pytest.mark.parametrize(
    ("params", "fix"),
    [
        ("{logger.wandb.offline: true}", "choose one first (logger: csv, wandb)"),
        ("{+trainer.max_epochs: 3}", "write trainer.max_epochs (or ++trainer.max_epochs to add or override)"),
        ("{experiment: fast}", "experiment is not in the app's defaults list; to add it, write +experiment"),
        ("{~nope: null}", "the app's config has no nope to delete"),
        # a near miss of the app's own key: the key it meant, not the advice to add a new one
        ("{trainer.max_epoch: 3}", "did you mean trainer.max_epochs? (a new key: +trainer.max_epoch)"),
        ("{trainr.max_epochs: 3}", "did you mean trainer.max_epochs? (a new key: +trainr.max_epochs)"),
    ],
)
@pytest.mark.slow
def test_each_refusal_says_what_to_write(tmp_path, params, fix):
    proc = crashmatrix("show", _matrix(tmp_path, f"params: {params}\n"), cwd=tmp_path)
    assert proc.returncode == 0  # show starts no cell: nothing to check
    proc = crashmatrix("run", _matrix(tmp_path, f"params: {params}\n"), "--out", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 2
    assert fix in proc.stderr.splitlines()[0]
    _nothing_ran(tmp_path)


@pytest.mark.parametrize("way_out", ["flag", "matrix key"])
@pytest.mark.slow
def test_no_preflight_lets_the_cells_meet_hydras_refusal(tmp_path, way_out):
    body = "params: {trainer.precision: 16}\n" + ("preflight: false\n" if way_out == "matrix key" else "")
    flags = ["--no-preflight"] if way_out == "flag" else []
    proc = crashmatrix("run", _matrix(tmp_path, body), "--out", tmp_path / "run", *flags, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    (row,) = rows_of(tmp_path / "run")
    assert row["outcome"] == "fail"
    assert "precision" in row["error"]


@pytest.mark.slow
def test_rerun_checks_the_overrides_it_adds(tmp_path):
    matrix = _matrix(tmp_path, "axes: {trainer: [default]}\n")
    assert crashmatrix("run", matrix, "--out", tmp_path / "first", cwd=tmp_path).returncode == 0
    proc = crashmatrix(
        "rerun", tmp_path / "first", "+params.trainer.precison=16", "--out", tmp_path / "again", cwd=tmp_path
    )
    assert proc.returncode == 2
    assert "params.trainer.precison: the app's config has no trainer.precison" in proc.stderr
    assert not (tmp_path / "again").exists()


@pytest.mark.slow
def test_bisect_checks_good_and_bad_before_its_first_run(tmp_path):
    matrix = _matrix(tmp_path, "axes:\n  logger: [csv, wandbb]\n  trainer: [default, gpu]\n")
    args = ["--good", "logger=csv", "trainer=default", "--bad", "logger=wandbb", "trainer=gpu"]
    proc = crashmatrix("bisect", matrix, *args, "--out", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 2
    assert "axes.logger: logger=wandbb: no such option; options: csv, wandb" in proc.stderr
    _nothing_ran(tmp_path)


@pytest.mark.slow
def test_hunt_checks_every_axis_value_before_its_first_run(tmp_path):
    matrix = _matrix(tmp_path, "axes:\n  logger: [csv, wandbb]\n  trainer: [default, gpu]\n")
    proc = crashmatrix("hunt", matrix, "--out", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 2
    assert "axes.logger: logger=wandbb: no such option; options: csv, wandb" in proc.stderr
    assert "Traceback" not in proc.stderr
    _nothing_ran(tmp_path)


@pytest.mark.slow
def test_a_config_only_the_app_can_compose_is_skipped_with_a_note(tmp_path):
    (tmp_path / "conf").mkdir()
    app = tmp_path / "stored.py"
    app.write_text(
        "import hydra\nfrom hydra.core.config_store import ConfigStore\n"
        'ConfigStore.instance().store(name="config", node={"lr": 0.1})\n'
        '@hydra.main(version_base=None, config_path="conf", config_name="config")\n'
        "def main(cfg):\n    print(cfg.lr)\n"
        'if __name__ == "__main__":\n    main()\n'
    )
    matrix = tmp_path / "m.yaml"
    matrix.write_text(f"command: [python, {app}]\naxes: {{lr: [0.5]}}\n")
    proc = crashmatrix("run", matrix, "--out", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "crashmatrix: preflight skipped: stored.py's config does not compose outside the app" in proc.stderr
    assert [r["outcome"] for r in rows_of(tmp_path / "run")] == ["pass"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        # inject refuses the near miss at load; app_keys says it is the app's own, and the app says it is not
        ("inject: true\naxes: {num_worker: [2]}\n", "axes.num_worker: did you mean num_workers?"),
        (
            "inject: true\napp_keys: [num_worker]\naxes: {num_worker: [2]}\n",
            "axes.num_worker: the app's config has no num_worker (app_keys lists it); to add it, write +num_worker",
        ),
        (
            "axes: {start_method: [fork]}\n",
            "axes.start_method: the app's config has no start_method; it is a knob: with inject: true",
        ),
    ],
)
@pytest.mark.slow
def test_knob_names_and_the_apps_keys_agree(tmp_path, body, message):
    matrix = _matrix(tmp_path, body)
    proc = crashmatrix("run", matrix, "--out", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.startswith(f"crashmatrix: {matrix}: {message}"), proc.stderr
    _nothing_ran(tmp_path)


def test_an_app_run_as_a_module_is_checked_too(tmp_path):
    shutil.copytree(os.path.dirname(APP), tmp_path / "groups")
    (tmp_path / "m.yaml").write_text("command: [python, -m, groups.app]\nparams: {trainer.precision: 16}\n")
    proc = crashmatrix("run", "m.yaml", "--out", tmp_path / "run", cwd=tmp_path)
    assert proc.returncode == 2
    assert "params.trainer.precision: the app's config has no trainer.precision" in proc.stderr
    _nothing_ran(tmp_path)


GROUP_SETS = [[], ["logger=wandb"], ["logger=csv", "trainer=gpu"], ["~logger", "+experiment=fast"]]
KEY_SETS = [
    ["seed=3", "++trainer.devices=4"],
    ["+trainer.precision=16", "~seed"],
    ["logger.wandb.offline=true"],
    ["trainer.precision=16"],
    ["hydra.run.dir=elsewhere"],
    ["hydra/job_logging=disabled"],
]


@pytest.mark.parametrize("layout", ["groups", "own hydra group"])
@pytest.mark.slow
def test_the_short_way_composes_what_hydra_composes(tmp_path, layout):
    """The child reuses a composed config and leaves Hydra's own config out where it can: for every set,
    the same config as Hydra's compose, or a refusal where Hydra refuses."""
    from hydra import compose, initialize_config_dir
    from omegaconf import OmegaConf

    from crashmatrix.app.preflight_child import Composer, Refused

    conf = tmp_path / "conf"
    shutil.copytree(os.path.join(os.path.dirname(APP), "conf"), conf)
    if layout == "own hydra group":  # as the Lightning template: `- hydra: default` overriding Hydra's logging
        (conf / "hydra").mkdir()
        (conf / "hydra" / "default.yaml").write_text(
            "defaults:\n  - override hydra_logging: disabled\nrun:\n  dir: x\n"
        )
        text = (conf / "train.yaml").read_text()
        (conf / "train.yaml").write_text(text.replace("  - logger: null\n", "  - logger: null\n  - hydra: default\n"))

    def plain(config) -> dict:
        data = OmegaConf.to_container(config)
        data.pop("hydra", None)
        return data

    refused = 0
    with initialize_config_dir(config_dir=str(conf), version_base=None):
        composer = Composer("train")
        for overrides in [g + k for g in GROUP_SETS for k in KEY_SETS]:
            try:
                want = plain(compose("train", overrides=overrides))
            except Exception:  # noqa: BLE001
                want = "refused"
            try:
                got = plain(composer.config(overrides))
            except Refused:
                got = "refused"
            assert got == want, overrides
            refused += want == "refused"
    assert 0 < refused < len(GROUP_SETS) * len(KEY_SETS) / 2


@pytest.mark.slow
def test_each_value_checks_every_value_without_the_product(tmp_path):
    """hunt's call: every axis value once, the other axes at their first values."""
    from crashmatrix.app import preflight
    from crashmatrix.errors import BadInput
    from crashmatrix.matrix.spec import load_matrix

    matrix = load_matrix(
        _matrix(tmp_path, "axes:\n  seed: [1, 2, 3]\n  trainer: [default, gpu]\n  logger: [csv, wandbb]\n")
    )
    cells = preflight.each_value(matrix)
    assert [c.label() for c in cells] == [
        "seed=1 trainer=default logger=csv",
        "seed=2 trainer=default logger=csv",
        "seed=3 trainer=default logger=csv",
        "seed=1 trainer=gpu logger=csv",
        "seed=1 trainer=default logger=wandbb",
    ]
    with pytest.raises(BadInput, match="axes.logger: logger=wandbb: no such option; options: csv, wandb"):
        preflight.check(matrix, cells)
