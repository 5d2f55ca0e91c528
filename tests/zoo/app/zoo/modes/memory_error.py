"""A buffer sized from a corrupt header (2**50 bytes): Python's own allocator raises MemoryError."""


def read_buffer(header_size: int) -> bytearray:
    return bytearray(header_size)


def main() -> None:
    print(len(read_buffer(1 << 50)))
