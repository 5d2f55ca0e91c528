"""A death by signal in the program's own native code (a C helper built with gcc, called through ctypes) is signed by
the native function it died in, where a backtrace names it; glibc's stack protector's abort is a known cause
(issue 52, item 2: two places never share one signature; the twenty-sixth held-out set's cx_ext_gather_segv and
cx_stack_smash were untrue there).

Run alone first (2026-11-30, gcc 12.2, glibc 2.36, torch 2.13): `python codec.py part=header` and `part=body` read
through a null pointer in decode_header and decode_body, both called from codec.py:24 in decode, and die by
SIGSEGV (the shell's 139), printing nothing; `part=tag` strcpy()s 47 bytes into a char[8] in copy_tag, built with
-fstack-protector-strong, and glibc prints `*** stack smashing detected ***: terminated` and aborts (134). Under
crashmatrix (inject) torch's fatal-signal handler prints the native frames of a program that imported torch
(`decode_header + 0xc (... in .../libcodec.so)`); without torch only faulthandler's Python frames are printed, and
the two faults, one Python line, cannot be told apart.
"""

from __future__ import annotations

import re
import shutil

import pytest
from conftest import crashmatrix, rows_of

pytestmark = [
    pytest.mark.slow,  # four live cells, two importing torch
    pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc to build the program's C helper"),
]

PROGRAM = r'''
import ctypes, os, subprocess, sys, tempfile

SOURCE = """
#include <string.h>
int decode_header(const int *p) { return p[0] + 1; }
int decode_body(const int *p) { return p[1] * 2; }
int copy_tag(const char *s) { char tag[8]; strcpy(tag, s); return (int)strlen(tag); }
"""


def build():
    folder = tempfile.mkdtemp(prefix="codec-")
    src, lib = os.path.join(folder, "codec.c"), os.path.join(folder, "libcodec.so")
    with open(src, "w") as f:
        f.write(SOURCE)
    subprocess.run(["gcc", "-O0", "-fstack-protector-strong", "-shared", "-fPIC", "-o", lib, src], check=True)
    return ctypes.CDLL(lib)


def decode(lib, part):
    if part == "tag":
        return lib.copy_tag(b"an experiment name far longer than eight bytes")
    return getattr(lib, f"decode_{part}")(None)  # a null buffer: the read faults in the C function


if __name__ == "__main__":
    args = dict(a.split("=", 1) for a in sys.argv[1:])
    if args["torch"] == "true":
        import torch  # noqa: F401
    print("decoded", decode(build(), args["part"]))
'''
MATRIX = """\
name: codec
command: [python, codec.py]
inject: true
axes:
  part: [header, body, tag]
  torch: [true, false]
exclude:
  - {part: tag, torch: true}
  - {part: body, torch: false}
"""


@pytest.fixture(scope="module")
def codec_run(tmp_path_factory):
    where = tmp_path_factory.mktemp("codec")
    (where / "codec.py").write_text(PROGRAM)
    (where / "m.yaml").write_text(MATRIX)
    ran = crashmatrix("run", "m.yaml", "--jobs", "2", "--out", "run", cwd=where)
    assert ran.returncode == 0, ran.stderr
    resolved = crashmatrix("resolve", "run", cwd=where)
    assert resolved.returncode == 0, resolved.stderr
    return where, {(r["part"], r["torch"]): r for r in rows_of(where / "run")}


def test_two_faults_in_two_native_functions_from_one_line_are_two_signatures(codec_run):
    where, rows = codec_run
    header, body = rows[("header", "true")], rows[("body", "true")]
    assert (header["outcome"], header["signal"], body["outcome"], body["signal"]) == ("crash", "SIGSEGV") * 2
    assert header["signature"] == "killed_by_signal in libcodec.so:decode_header; codec.py:decode", header
    assert body["signature"] == "killed_by_signal in libcodec.so:decode_body; codec.py:decode", body
    assert re.fullmatch(r"libcodec\.so \(decode_header\+0x[0-9a-f]+\); codec\.py:24 in decode", header["where"]), header
    # its bug report says where in native code it ended, and the program's line that called it
    (issue,) = (where / "run" / "repro").glob("killed_by_signal-in-libcodec.so-decode_header*/ISSUE.md")
    first = issue.read_text().splitlines()[2]
    assert re.match(
        r"The failing stack shows no installed library's code \(it ended in libcodec\.so \(decode_header\+0x[0-9a-f]+\), "
        r"called at codec\.py:24 in decode\): look first at the program's own code",
        first,
    ), first
    # without torch's backtrace no native frame is printed: the program's frame alone, as before
    alone = rows[("header", "false")]
    assert (alone["signature"], alone["where"]) == ("killed_by_signal in codec.py:decode", "codec.py:24 in decode")


def test_a_stack_smashing_abort_is_its_known_cause_with_its_fix(codec_run):
    where, rows = codec_run
    tag = rows[("tag", "false")]
    assert (tag["outcome"], tag["signal"]) == ("crash", "SIGABRT"), tag
    assert tag["signature"] == "stack smashing detected in codec.py:decode", tag
    assert (tag["where"], tag["error"]) == ("codec.py:23 in decode", "*** stack smashing detected ***: terminated")
    (issue,) = (where / "run" / "repro").glob("stack-smashing-detected-*/ISSUE.md")
    first = issue.read_text().splitlines()[2]
    assert first.startswith("A failure of a known kind (it ended in codec.py:23 in decode), whose fix is the program's")
    assert "glibc caught a write past a buffer" in first and "-fsanitize=address" in first
