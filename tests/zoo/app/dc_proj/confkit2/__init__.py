"""The settings objects of a small trainer, and the loop that reads them (tests/zoo/HELDOUT75.md)."""
