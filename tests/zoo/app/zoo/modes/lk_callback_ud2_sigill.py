"""A throughput callback calls the program's own machine-code kernel through ctypes: SIGILL in the main process.

The callback counts the non-zero features of each batch with a tiny native kernel the program maps into executable
memory and calls through ctypes, picked by the CPU's flags. The AVX-512 entry is still the placeholder its author
left (`ud2`, the trap "not written yet"); on a CPU with avx512f the dispatcher picks it, and the first batch's end
executes it.
"""

import ctypes
import faulthandler
import mmap

import pytorch_lightning as pl

from zoo.modes.lk_common import Classifier, loader, records, trainer

KERNELS = {
    "avx512f": bytes.fromhex("0f0b"),  # placeholder: ud2 until the AVX-512 kernel is written
    "sse2": bytes.fromhex("89f8c3"),  # mov eax, edi; ret  (returns its argument)
}


def cpu_flags() -> set[str]:
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    return set()


def load_kernel():
    name = "avx512f" if "avx512f" in cpu_flags() else "sse2"
    page = mmap.mmap(-1, mmap.PAGESIZE, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    page.write(KERNELS[name])
    address = ctypes.addressof(ctypes.c_char.from_buffer(page))
    return page, ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_int)(address)


class Throughput(pl.Callback):
    def on_fit_start(self, trainer, pl_module) -> None:
        self.page, self.count_kernel = load_kernel()
        self.counted = 0

    def on_train_batch_end(self, trainer, pl_module, outputs, batch, batch_idx) -> None:
        x, _ = batch
        self.counted += self.count_kernel(int(x.numel()))


def main() -> None:
    faulthandler.enable()
    trainer(callbacks=[Throughput()]).fit(Classifier(), loader(records()))
    print("done")
