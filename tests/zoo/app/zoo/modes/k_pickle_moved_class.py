"""A vocabulary pickled by an older version of the code, whose class lived in a module since renamed: loading it
fails to import the old module."""

import pickle

OLD_PICKLE = b"\x80\x02czoo.vocab_v1\nVocab\nq\x00)\x81q\x01."  # pickle.dumps of zoo.vocab_v1.Vocab()


def load_vocab(blob: bytes):
    return pickle.loads(blob)


def main() -> None:
    print(load_vocab(OLD_PICKLE))
