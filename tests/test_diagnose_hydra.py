"""`crashmatrix diagnose` of a Hydra app's config error, from its log alone: the config file and line, as a
cell's `where` gives it, found through the app the log names, where that app is on this machine.

Real logs, written by running the zoo's Hydra app alone (tests/zoo/app/hydra_app, `python hydra_app/train.py
model=...`, Hydra 1.3): a `???` its model option leaves (MissingMandatoryValue, raised in the program's
instantiate: the traceback names train.py), and an option its defaults list cannot find (no traceback; Hydra's
`Config search path` names the config folder). The same logs with the app's folder renamed away say what they
cannot tell instead. Under a second: the app fails in composing its config, before it imports torch.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from conftest import ROOT

from crashmatrix.resolve.diagnose import diagnose
from crashmatrix.resolve.log_text import read_logs

APP = os.path.join(ROOT, "tests", "zoo", "app")


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    where = tmp_path_factory.mktemp("hydra-logs")
    found = {}
    for model in ("h_mlp_mandatory", "nope"):
        argv = [sys.executable, "hydra_app/train.py", f"model={model}", f"hydra.run.dir={where / model}"]
        alone = subprocess.run(argv, cwd=APP, capture_output=True, text=True, timeout=120)
        assert alone.returncode == 1, alone.stderr
        (where / f"{model}.err").write_text(alone.stderr)
        gone = alone.stderr.replace(APP, "/elsewhere/app")  # the log read on a machine without the app
        (where / f"{model}-elsewhere.err").write_text(gone)
        found[model] = where / f"{model}.err"
        found[f"{model}-elsewhere"] = where / f"{model}-elsewhere.err"
    return found


@pytest.mark.parametrize(
    "model, where",
    [
        ("h_mlp_mandatory", "hydra_app/conf/model/h_mlp_mandatory.yaml:3 in model.in_features"),
        ("nope", "hydra_app/conf/config.yaml:2 in defaults.model"),
    ],
)
def test_a_config_error_in_a_log_is_placed_at_the_config_line(logs, model, where):
    told = diagnose(read_logs([str(logs[model])]))
    assert (told.row["outcome"], told.row["where"]) == ("fail", where)
    assert not any(c.startswith("the config file and line") for c in told.cannot_tell)


@pytest.mark.parametrize("model", ["h_mlp_mandatory", "nope"])
def test_without_the_app_here_the_log_says_it_cannot_tell_the_config_line(logs, model):
    told = diagnose(read_logs([str(logs[f"{model}-elsewhere"])]))
    assert ".yaml:" not in told.row["where"]
    assert any(c.startswith("the config file and line: Hydra's message names the key") for c in told.cannot_tell)
