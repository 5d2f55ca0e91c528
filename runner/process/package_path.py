"""A folder that, put on a cell's PYTHONPATH, makes `crashmatrix` importable there.

A probe's child (and its spawned DataLoader workers) may run under another interpreter than the
controller's: the `python` axis. Installed from a wheel, the package's parent folder would do, but it
is the controller's site-packages and would lend the cell the controller's torch; in a source checkout
the package folder is named runner/, so no parent folder holds a `crashmatrix`. Either way a folder
holding only a link named crashmatrix gives the cell exactly this package and nothing else.
"""

import os

# the package folder itself (runner/ in a checkout), one above this subpackage
PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def package_path(scratch: str) -> str:
    """A folder under `scratch` (created once, atomically) whose only entry links to this package."""
    folder = os.path.join(scratch, ".crashmatrix-path")
    link = os.path.join(folder, "crashmatrix")
    if os.path.realpath(link) != os.path.realpath(PACKAGE_DIR):
        os.makedirs(folder, exist_ok=True)
        temporary = f"{link}.{os.getpid()}"
        os.symlink(PACKAGE_DIR, temporary)
        os.replace(temporary, link)
    return folder
