"""Per-task argument dataclasses, parsed beside the training arguments (like HfArgumentParser's list)."""
