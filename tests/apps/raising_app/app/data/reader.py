"""The app's data layer: each function reads one kind of record the way a real loader would."""

import json


def parse_label(text):
    return json.loads(text)["label"]


def open_image(path):
    from PIL import Image

    return Image.open(path)


def check_label(label):
    if label < 0:
        raise ValueError(f"label {label} is negative")
    return label


def load_config(path):
    try:
        with open(path) as f:
            return f.read()
    except FileNotFoundError as e:
        raise RuntimeError(f"no config at {path}") from e
