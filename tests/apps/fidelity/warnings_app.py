"""Warnings from the program and from its module `noisy`, left to whatever filters the command line
(-W) or PYTHONWARNINGS set: by category, by module and by message. Nothing here filters."""

import warnings

import noisy

if __name__ == "__main__":
    warnings.warn("main user warning", UserWarning)
    warnings.warn("main deprecation", DeprecationWarning)
    warnings.warn("hush: main but quiet by message", UserWarning)
    for _ in range(2):
        warnings.warn("main repeated", UserWarning)  # shown once per place under `default`
    noisy.speak_for_the_caller()
    noisy.speak()
    print("end")
