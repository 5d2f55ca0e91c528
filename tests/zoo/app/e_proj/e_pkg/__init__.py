"""e_pkg: a small plain-torch training package, started by scripts/train.sh as `python -m e_pkg.run key=value ...`."""
