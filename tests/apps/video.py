"""A user's frame reader that never returns: the stuck read of a hanging DataLoader worker."""

import time


def read_frame(index: int):
    while True:  # a read that waits forever (a stalled network filesystem, a dead camera)
        time.sleep(0.2)
