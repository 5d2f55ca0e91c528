"""fleetlib 0.9.0: the build every node but one has (examples/fleet/README.md)."""

__version__ = "0.9.0"


def checksum():
    return 0


def load(num_workers):
    return list(range(num_workers))
