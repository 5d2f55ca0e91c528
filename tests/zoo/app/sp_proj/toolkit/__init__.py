"""The trainer's helpers: external tools (tools.py), data preparation (prep.py) and a small loop (train.py)."""
