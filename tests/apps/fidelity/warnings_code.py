"""Warnings filtered by the program's own code: filterwarnings by module and by message, a scoped
catch_warnings, `once`, its own showwarning, and an error raised from a filter."""

import sys
import warnings

import noisy


def showwarning(message, category, filename, lineno, file=None, line=None):
    print(f"own showwarning: {category.__name__}: {message} ({filename.rsplit('/', 1)[-1]}:{lineno})", file=sys.stderr)


if __name__ == "__main__":
    warnings.filterwarnings("ignore", category=UserWarning, module="noisy")
    warnings.filterwarnings("ignore", message="hush")
    warnings.simplefilter("once", RuntimeWarning)
    noisy.speak()
    for _ in range(3):
        warnings.warn("once only", RuntimeWarning)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        noisy.speak_for_the_caller()
        warnings.warn("recorded", UserWarning)
    print("recorded:", [(str(w.message), w.category.__name__, w.filename.rsplit("/", 1)[-1], w.lineno) for w in caught])
    warnings.showwarning = showwarning
    warnings.warn("through the program's showwarning", UserWarning)
    warnings.filterwarnings("error", message="fatal", module="__main__")
    warnings.warn("fatal: an error by message and module", UserWarning)
    print("not reached")
