"""The vocabulary cache."""

WORDS = {}


def load() -> None:
    WORDS.update({w: i for i, w in enumerate(["title", "text", "figure", "table"])})
