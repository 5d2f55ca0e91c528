"""The project's export CLI, `python -m vqrun.export N`: writes N embeddings, logging each on stderr."""

import logging
import sys

log = logging.getLogger("vqrun.export")


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    n = int(sys.argv[1])
    for i in range(n):
        log.info("exported item %06d: embedding dim 16, norm %.6f, shard %d", i, 1.0 + i / n, i % 8)
    print(f"exported {n} items", flush=True)


if __name__ == "__main__":
    main()
