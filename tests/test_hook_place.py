"""`where` for a Lightning refusal named by its hook (verdict/hook_place.py), on planted records of what the
cell's main process wrote under inject (incell/hook_place.py: `FILE:LINE in Class.hook`, one a line). Pure:
the live runs are tests/zoo/test_reported.py's Lightning modes."""

from __future__ import annotations

from crashmatrix.incell.hook_place import PREFIX
from crashmatrix.incell.stackdump import dump_dir
from crashmatrix.outcome import Outcome
from crashmatrix.verdict import hook_place
from crashmatrix.verdict.classify import Verdict

MODELS = """\
import lightning


class Net(lightning.LightningModule):
    def training_step(self, batch, i):
        loss = self.forward(batch)
        return loss.item()

    def on_train_end(self):
        self.log("done", 1.0)
"""


def _planted(tmp_path, hook_line: int, hook: str):
    app = tmp_path / "app"
    app.mkdir()
    (app / "pyproject.toml").write_text("[project]\nname = 'app'\n")
    (app / "models.py").write_text(MODELS)
    cell = tmp_path / "cell"
    (cell / dump_dir("")).mkdir(parents=True)
    (cell / dump_dir("") / f"{PREFIX}4242.txt").write_text(f"{app / 'models.py'}:{hook_line} in Net.{hook}\n")
    return str(cell)


def test_a_refused_return_is_placed_at_the_hooks_return_line(tmp_path):
    cell = _planted(tmp_path, 5, "training_step")
    error = "MisconfigurationException: In automatic_optimization, `training_step` must return a Tensor"
    where = "pytorch_lightning/loops/optimization/automatic.py:320 in _training_step"
    placed = hook_place.placed(Verdict(Outcome.FAIL, error=error), where, cell, 4242)
    assert placed == f"{where}; models.py:7 in training_step"


def test_a_hook_already_on_the_stack_is_not_named_twice(tmp_path):
    # `self.log` inside `on_train_end`: Lightning raised while the hook ran, so the stack's own frame is the place
    cell = _planted(tmp_path, 9, "on_train_end")
    error = "MisconfigurationException: You can't `self.log()` inside `on_train_end`."
    where = "pytorch_lightning/trainer/connectors/logger_connector/fx_validator.py:161 in check_logging; models.py:10 in on_train_end"
    assert hook_place.placed(Verdict(Outcome.FAIL, error=error), where, cell, 4242) == where
