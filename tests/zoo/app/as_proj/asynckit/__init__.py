"""asynckit: a toy trainer whose data arrives through asyncio and thread pools (tests/zoo/HELDOUT64.md)."""
