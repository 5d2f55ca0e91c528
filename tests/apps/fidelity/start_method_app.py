"""A program that picks its own start method (spawn), asks what it has, sets it twice (the second time
multiprocessing refuses), and starts a process that prints from the child."""

import multiprocessing as mp


def child(word):
    print("child says", word, "under", mp.get_start_method())


if __name__ == "__main__":
    print("before:", mp.get_start_method(allow_none=True))
    mp.set_start_method("spawn")
    print("after:", mp.get_start_method())
    try:
        mp.set_start_method("spawn")
    except RuntimeError as e:
        print("again:", e)
    p = mp.Process(target=child, args=("hello",))
    p.start()
    p.join()
    print("child exit", p.exitcode)
