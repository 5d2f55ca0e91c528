"""A prefetch thread normalises each batch with the program's own C++ masked_mean (load_inline), while the main
thread trains on what it queues.

The config asks for padding masks (`use_mask: true`), but the validation split carries none, so the thread passes
mask=None; the kernel takes the mask's pointer only when one is given (nullptr otherwise) yet reads it whenever
use_mask is set: a null dereference in the program's .so, on the prefetch thread. The whole process dies by
SIGSEGV while the main thread waits on the queue.
"""

import faulthandler
import os
import queue
import threading

import torch
from torch.utils.cpp_extension import load_inline

APP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CONFIG = {"use_mask": True, "split": "val"}

SOURCE = r"""
at::Tensor masked_mean(const at::Tensor &x, const c10::optional<at::Tensor> &mask, bool use_mask) {
    auto a = x.contiguous();
    const float *v = a.data_ptr<float>();
    const float *m = mask.has_value() ? mask->contiguous().data_ptr<float>() : nullptr;
    double s = 0, n = 0;
    for (int64_t i = 0; i < a.numel(); ++i) {
        const double w = use_mask ? m[i] : 1.0;
        s += w * v[i];
        n += w;
    }
    return at::full({}, s / (n > 0 ? n : 1), a.options());
}
"""


def build():
    folder = os.path.join(APP, ".torch_ext", "xt_mask_ops")
    os.makedirs(folder, exist_ok=True)
    return load_inline(name="xt_mask_ops", cpp_sources=[SOURCE], functions=["masked_mean"], build_directory=folder)


def batches(split: str):
    g = torch.Generator().manual_seed(0)
    for _ in range(4):
        x = torch.rand(8, 16, generator=g)
        yield x, (torch.ones(8, 16) if split == "train" else None)


def prefetch(ext, q: queue.Queue) -> None:
    for x, mask in batches(CONFIG["split"]):
        centre = ext.masked_mean(x, mask, CONFIG["use_mask"])
        q.put(x - centre)
    q.put(None)


def main() -> None:
    faulthandler.enable()
    ext = build()
    q: queue.Queue = queue.Queue(maxsize=2)
    threading.Thread(target=prefetch, args=(ext, q), name="prefetch", daemon=True).start()
    net = torch.nn.Linear(16, 1)
    while (x := q.get()) is not None:
        print(f"loss {net(x).pow(2).mean().item():.4f}", flush=True)
