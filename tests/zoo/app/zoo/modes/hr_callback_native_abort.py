"""A Hydra callback's on_job_end exports the job's vocabulary through the app's own C++ library, which throws
past its C boundary; C++ terminates the process with SIGABRT after the job itself succeeded.

The tokenizer adds 4 special tokens above `tokenizer.vocab_size`; the exporter is given vocab_size alone.
"""

import ctypes
import faulthandler
import sys
from dataclasses import dataclass, field
from typing import Any

import hydra
from hydra.core.config_store import ConfigStore
from hydra.experimental.callback import Callback
from omegaconf import DictConfig

from zoo import hr_native


@dataclass
class TokenizerConf:
    vocab_size: int = 32000
    extra_tokens: int = 4


@dataclass
class AppConf:
    tokenizer: TokenizerConf = field(default_factory=TokenizerConf)
    hydra: Any = field(
        default_factory=lambda: {
            "run": {"dir": "${oc.env:TMPDIR,/tmp}/hr_cb/${now:%Y-%m-%d_%H-%M-%S-%f}"},
            "callbacks": {"vocab": {"_target_": "zoo.modes.hr_callback_native_abort.VocabExport"}},
        }
    )


class VocabExport(Callback):
    def on_job_end(self, config: DictConfig, job_return: Any, **kwargs: Any) -> None:
        ids = job_return.return_value
        arr = (ctypes.c_long * len(ids))(*ids)
        total = hr_native.load().hr_export_vocab(arr, len(ids), config.tokenizer.vocab_size)
        print(f"vocabulary exported ({total})", flush=True)


def task(cfg: DictConfig) -> list:
    top = cfg.tokenizer.vocab_size + cfg.tokenizer.extra_tokens
    ids = [5, 17, 31999, top - 1]  # <pad>, words, and the last special token (<eos>)
    print(f"job done: {len(ids)} token ids, max {max(ids)}", flush=True)
    return ids


def main() -> None:
    faulthandler.enable()
    hr_native.load()
    ConfigStore.instance().store(name="hr_cb_app", node=AppConf)
    sys.argv = [sys.argv[0]]
    hydra.main(config_path=None, config_name="hr_cb_app", version_base="1.3")(task)()
