"""Text normalised by an external tokenizer kept running as a coprocess (`sed` with the punctuation rule, as
Moses' perl tokenizer is driven): the main writes one sentence to its stdin, flushes, and readline()s the answer.
sed's stdout is a pipe, so its C library buffers the answer until 4 KiB are ready or its input ends; sed waits for
more input, the main for the line. Both wait for ever."""

import subprocess

SENTENCES = ["The cat sat, quietly.", "Is it raining?", "Yes!"]


def main() -> None:
    tok = subprocess.Popen(
        ["sed", "-E", "s/([[:punct:]])/ \\1 /g"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    print("tokenizing with the sed coprocess", flush=True)
    for s in SENTENCES:
        tok.stdin.write(s + "\n")
        tok.stdin.flush()
        print(tok.stdout.readline().split())
    tok.stdin.close()
    tok.wait()
