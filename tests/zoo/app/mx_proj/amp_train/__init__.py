"""A small mixed precision trainer on the CPU (tests/zoo/HELDOUT38.md)."""
