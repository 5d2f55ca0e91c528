"""A traceback a program's log formatter printed with its prefix on every line is read as Python printed it (the
thirty-first held-out set, HELDOUT31.md: ox_logexc_dropout_percent and ox_ddp_rank1_prefix_multinomial, whose
recorded logs test_heldout31.py reads). Pure: text in, facts out."""

import pytest

from crashmatrix.verdict.log_prefix import unprefixed
from crashmatrix.verdict.parsed import read_output

LOGGED = """\
12:00:01 [MainProcess] INFO  | epoch 0
12:00:02 [MainProcess] ERROR | could not build the model
12:00:02 [MainProcess] ERROR | Traceback (most recent call last):
12:00:02 [MainProcess] ERROR |   File "/app/train.py", line 21, in build_model
12:00:02 [MainProcess] ERROR |     return Net(cfg)
12:00:02 [MainProcess] ERROR |   File "/app/model.py", line 12, in __init__
12:00:02 [MainProcess] ERROR |     self.drop = nn.Dropout(cfg["dropout"])
12:00:02 [MainProcess] ERROR | ValueError: dropout probability has to be between 0 and 1, but got 15
✗ ValueError: dropout probability has to be between 0 and 1, but got 15
"""


def test_a_traceback_a_log_formatter_prefixed_is_read_as_python_printed_it():
    last = read_output(LOGGED).last_traceback()
    assert last is not None and last.on_own_line
    assert last.exception == "ValueError: dropout probability has to be between 0 and 1, but got 15"
    assert [(c.path, c.lineno, c.function) for c in last.calls] == [
        ("/app/train.py", "21", "build_model"),
        ("/app/model.py", "12", "__init__"),
    ]
    # ranks.py reads it with each line's length kept (its offsets order the ranks' failures)
    kept = unprefixed(LOGGED, keep_offsets=True)
    assert [len(line) for line in kept.split("\n")] == [len(line) for line in LOGGED.split("\n")]


@pytest.mark.parametrize(
    "text",
    [
        # an exception group's box: its own reader (parsed.unboxed) tells it
        '  | Traceback (most recent call last):\n  |   File "/app/a.py", line 3, in f\n  | ValueError: x\n',
        # torch's label of a rank's lines: ranks.py reads those rank by rank
        '[rank1]: Traceback (most recent call last):\n[rank1]:   File "/app/a.py", line 3, in f\n',
        # a progress bar the traceback's head was glued to: the next line does not carry it
        'epoch 0:  40%|####  | 4/10\rTraceback (most recent call last):\n  File "/app/a.py", line 3, in f\n',
        # a traceback quoted, indented, in a message
        '    Traceback (most recent call last):\n      File "/app/a.py", line 3, in f\n',
        # a traceback quoted in a comment: marks are no prefix a formatter writes
        '# Traceback (most recent call last):\n#   File "/app/a.py", line 3, in f\n# ValueError: x\n',
    ],
    ids=["exception-group", "rank-label", "progress-bar", "indented", "commented"],
)
def test_what_is_no_log_prefix_is_left_as_printed(text):
    assert unprefixed(text) == text
