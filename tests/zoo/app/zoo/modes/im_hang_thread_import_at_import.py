"""A package that, at import time, starts a thread to warm a cache and joins it; the thread imports the package's
submodule, which waits on the package's own import lock, held by the main thread that waits in join(): both wait
for ever, after `warming the vocabulary cache`."""


def main() -> None:
    print("loading the tokenizer", flush=True)
    from zoo.im_warmup import vocab

    print(f"{len(vocab.WORDS)} words")
