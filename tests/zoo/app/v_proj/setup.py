"""v_proj: a small Fabric + Hydra-compose project (the eleventh held-out set's, tests/zoo/HELDOUT11.md).

Its root is marked by this file alone. Run from here as a module: `python -m v_app.cli experiment=NAME`.
"""

from setuptools import find_packages, setup

setup(name="v_proj", version="0.1", packages=find_packages(), package_data={"v_app.conf": ["*.yaml", "*/*.yaml"]})
