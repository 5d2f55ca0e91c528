"""textft: a hand-written text fine-tuning stack (tests/zoo/HELDOUT30.md), run as
`python run_finetune.py --config configs/NAME.json --output_dir outputs --seed 1` from this folder."""

from setuptools import find_packages, setup

setup(name="textft", version="0.1.0", packages=find_packages(), install_requires=["torch"])
