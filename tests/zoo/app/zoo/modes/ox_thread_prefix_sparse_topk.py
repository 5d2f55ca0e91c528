"""An evaluation thread (ThreadPoolExecutor) scores retrieval with a log whose formatter prefixes every line
with the thread's name; the document vectors are kept sparse (COO) to save memory, and `torch.topk` has no
sparse kernel: the thread's NotImplementedError carries torch's many-line dispatcher message, the main
re-raises it from future.result()."""

import logging
import sys
from concurrent.futures import ThreadPoolExecutor

import torch


class Prefixed(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        prefix = f"[{record.threadName}] {record.levelname}: "
        return "\n".join(prefix + line for line in super().format(record).split("\n"))


log = logging.getLogger("eval")


def score(docs: torch.Tensor, query: torch.Tensor) -> list[int]:
    sims = docs * query  # stays sparse
    log.info("scoring %d documents", docs.shape[0])
    try:
        return torch.topk(sims, k=3, dim=1).indices.tolist()
    except Exception:
        log.exception("retrieval scoring failed")
        raise


def main() -> None:
    h = logging.StreamHandler(sys.stderr)
    h.setFormatter(Prefixed("%(message)s"))
    logging.basicConfig(handlers=[h], level=logging.INFO)
    g = torch.Generator().manual_seed(0)
    dense = torch.rand(20, 50, generator=g)
    docs = (dense * (dense > 0.8)).to_sparse()
    query = torch.rand(1, 50, generator=g)
    with ThreadPoolExecutor(1, thread_name_prefix="eval") as pool:
        fut = pool.submit(score, docs, query)
        print(f"top documents: {fut.result()}", flush=True)
