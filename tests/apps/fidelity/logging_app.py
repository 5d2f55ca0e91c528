"""The program's own logging: basicConfig with a format naming module, function and line, a file
handler of its own, a logger that does not propagate, warnings captured into logging, and a child
logger with no handler of its own. The log file is compared too."""

import logging
import sys
import warnings

import noisy

if __name__ == "__main__":
    logging.basicConfig(
        level=logging.INFO,
        stream=sys.stdout,
        format="%(asctime)s %(levelname)s %(name)s %(module)s.%(funcName)s:%(lineno)d %(message)s",
    )
    to_file = logging.FileHandler("logging_app.log", mode="w")
    to_file.setFormatter(logging.Formatter("%(levelname)s|%(name)s|%(pathname)s|%(message)s"))
    logging.getLogger().addHandler(to_file)
    log = logging.getLogger("app")
    log.info("started with %d handlers on the root", len(logging.getLogger().handlers))
    log.debug("not shown: below INFO")
    alone = logging.getLogger("alone")
    alone.propagate = False
    alone.addHandler(logging.StreamHandler(sys.stderr))
    alone.warning("only on stderr, unformatted")
    logging.captureWarnings(True)
    noisy.speak()
    warnings.warn("a warning that logging carries", UserWarning)
    logging.getLogger("app.child").error("from a child logger")
    try:
        _ = 1 / 0
    except ZeroDivisionError:
        log.exception("an exception, logged with its traceback")
    print(
        "root level",
        logging.getLevelName(logging.getLogger().level),
        "loggers",
        sorted(logging.root.manager.loggerDict),
    )
