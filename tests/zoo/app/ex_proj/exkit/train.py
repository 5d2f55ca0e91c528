"""The trainer: `python -m exkit.train case=NAME [key=value ...]` (scripts/launch.sh runs it)."""

import logging
import os
import time
import warnings

import torch

from exkit import machinery
from exkit.config import parse
from exkit.data import Points, loader, normaliser, stats
from exkit.hooks import install_crash_report

log = logging.getLogger("exkit")


def fit(cfg: dict, model, opt, norm, dl, dog) -> list:
    history = []
    for epoch in range(int(cfg["epochs"])):
        batches = machinery.prefetched(dl) if cfg.get("prefetch") == "1" else dl
        total = 0.0
        for step, (x, y) in enumerate(batches):
            loss = torch.nn.functional.cross_entropy(model(norm(x)), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += loss.item()
            if dog:
                dog.beat()
            if machinery.STOP.is_set():
                torch.save(model.state_dict(), os.path.join(cfg["run_dir"], "preempt.pt"))
                log.info("checkpoint saved at epoch %d step %d; exiting for requeue", epoch, step)
                return history
            if step + 1 >= int(cfg["steps"]):
                break
        history.append({"epoch": epoch, "loss": total / (step + 1)})
        log.info("epoch %d loss %.4f", epoch, history[-1]["loss"])
    return history


def main() -> None:
    cfg = parse()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    os.makedirs(cfg["run_dir"], exist_ok=True)
    log.info("case %s, run folder %s", cfg["case"], cfg["run_dir"])
    if cfg.get("crash_report") == "1":
        install_crash_report(cfg["run_dir"])
    if cfg["strict"] == "1":
        warnings.filterwarnings("error")
    if cfg.get("prefetch") == "1":
        import threading

        threading.excepthook = machinery.die_on_thread_error
    if cfg.get("prep") == "1":
        machinery.prepare_shards(cfg["run_dir"])
    torch.manual_seed(0)
    ds = Points()
    norm = normaliser(stats(ds))
    if cfg.get("feature_child") == "1":
        feats = machinery.extract_features()
        log.info("%d feature blocks", len(feats))
    model = torch.nn.Sequential(torch.nn.Linear(8, 32), torch.nn.ReLU(), torch.nn.Linear(32, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    dl = loader(ds, cfg)
    dog = None
    if float(cfg["watchdog_s"]) > 0:
        dog = machinery.Watchdog(float(cfg["watchdog_s"]))
        dog.start()
    if "cache_build_s" in cfg:
        log.info("building the sample cache")
        time.sleep(float(cfg["cache_build_s"]))
    if "preempt_after_s" in cfg:
        machinery.install_preemption(float(cfg["preempt_after_s"]))
        ds.delay_s = 0.05
    if cfg.get("metrics_log") == "1":
        with open(os.path.join(cfg["run_dir"], "metrics.log"), "w") as f:
            log.addHandler(logging.StreamHandler(f))
            history = fit(cfg, model, opt, norm, dl, dog)
    else:
        history = fit(cfg, model, opt, norm, dl, dog)
    best = min(history, key=lambda h: h["val_loss"] if cfg.get("crash_report") == "1" else h["loss"])
    log.info("best epoch %d, loss %.4f", best["epoch"], best["loss"])


if __name__ == "__main__":
    main()
