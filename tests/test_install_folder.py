"""A library pip installed into a folder of its own (`pip install --target DIR`, a PYTHONPATH folder of
libraries on a cluster) is a library, not the program: `where` names it below that folder and goes on to the
program's line that called it. The twentieth held-out set's LightningCLI app had jsonargparse so (in
/tmp/g_deps, on PYTHONPATH): its usage error, raised as SystemExit in argparse's exit from jsonargparse's error,
was placed at jsonargparse's frame as if it were the program's, and the program's `main.py:12 in cli_main` was
left out (HELDOUT20.md)."""

from crashmatrix.verdict.exception_place import exception_place


def _traceback(libs, app):
    return f"""\
Traceback (most recent call last):
  File "{app}/main.py", line 16, in <module>
    cli_main()
  File "{app}/main.py", line 12, in cli_main
    LightningCLI(Model, Data)
  File "{libs}/jsonargparse/_core.py", line 1191, in error
    self.exit(2)
  File "/usr/lib/python3.11/argparse.py", line 2617, in exit
    _sys.exit(status)
SystemExit: 2
"""


def test_a_library_in_a_folder_pip_installed_into_is_no_frame_of_the_program(tmp_path):
    libs, app = tmp_path / "deps", tmp_path / "proj"
    (libs / "jsonargparse").mkdir(parents=True)
    (libs / "jsonargparse" / "_core.py").write_text("")
    (libs / "jsonargparse-4.53.0.dist-info").mkdir()
    (libs / "jsonargparse-4.53.0.dist-info" / "RECORD").write_text(
        "jsonargparse/__init__.py,sha256=x,10\njsonargparse/_core.py,sha256=y,20\njsonargparse-4.53.0.dist-info/RECORD,,\n"
    )
    app.mkdir()
    (app / "pyproject.toml").write_text("")
    (app / "main.py").write_text("")
    assert exception_place(_traceback(libs, app)) == "argparse.py:2617 in exit; main.py:12 in cli_main"


def test_a_program_beside_what_pip_installed_into_its_folder_stays_the_programs(tmp_path):
    # `pip install -t .` in the project: the dist-info lies in the program's own folder, listing only the library
    (tmp_path / "jsonargparse").mkdir()
    (tmp_path / "jsonargparse" / "_core.py").write_text("")
    (tmp_path / "jsonargparse-4.53.0.dist-info").mkdir()
    (tmp_path / "jsonargparse-4.53.0.dist-info" / "RECORD").write_text("jsonargparse/_core.py,sha256=y,20\n")
    (tmp_path / "pyproject.toml").write_text("")
    assert exception_place(_traceback(tmp_path, tmp_path)) == "argparse.py:2617 in exit; main.py:12 in cli_main"


def test_a_folder_without_an_install_record_stays_the_programs(tmp_path):
    # the same files with no dist-info beside them: a folder of the user's own code on PYTHONPATH
    libs, app = tmp_path / "shared", tmp_path / "proj"
    (libs / "jsonargparse").mkdir(parents=True)
    (libs / "jsonargparse" / "_core.py").write_text("")
    (libs / "jsonargparse.egg-info").mkdir()  # an editable install's record, in the project itself
    app.mkdir()
    (app / "pyproject.toml").write_text("")
    assert exception_place(_traceback(libs, app)).endswith("jsonargparse/_core.py:1191 in error")
