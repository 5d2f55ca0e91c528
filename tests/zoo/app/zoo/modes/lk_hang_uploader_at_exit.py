"""Training ends, but the process does not: an uploader child (not a daemon) waits for a sentinel never sent.

The program's callback starts an uploader process when fit ends and hands it the run's files; it sends the
sentinel that ends the uploader in `on_test_end`, written for a run that tests after fitting. This one only fits,
so at exit Python's multiprocessing joins the uploader, which waits on its queue for ever.
"""

import multiprocessing as mp
import os

import pytorch_lightning as pl

from zoo.modes.lk_common import Classifier, loader, records, trainer


def upload(todo) -> None:
    while True:
        item = todo.get()
        if item is None:
            break
        print(f"uploaded {os.path.basename(item)}", flush=True)


class Uploader(pl.Callback):
    def on_fit_end(self, trainer, pl_module) -> None:
        self.todo = mp.Queue()
        self.process = mp.Process(target=upload, args=(self.todo,), name="uploader")
        self.process.start()
        for name in sorted(os.listdir(trainer.logger.log_dir)):
            self.todo.put(os.path.join(trainer.logger.log_dir, name))

    def on_test_end(self, trainer, pl_module) -> None:
        self.todo.put(None)


def main() -> None:
    trainer(callbacks=[Uploader()]).fit(Classifier(), loader(records()))
    print("training done", flush=True)
