"""A config with a tab in its indentation: PyYAML's scanner refuses it while the program loads it."""

import yaml

CONFIG = "model:\n  width: 64\n\tdepth: 4\n"  # a tab where YAML allows only spaces


def load_config(text: str) -> dict:
    return yaml.safe_load(text)


def main() -> None:
    print(load_config(CONFIG))
