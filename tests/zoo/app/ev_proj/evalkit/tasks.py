"""The evaluation tasks, one per `--task`."""

import json
import os

import torch
from torch.utils.data import DataLoader

from evalkit import ckpt, metrics
from evalkit.data import CachedFeatures, EvalImages
from evalkit.model import Classifier, ClassifierWithAux, FlatHead


def _out(args) -> str:
    os.makedirs(args.out, exist_ok=True)
    return args.out


def _restore(args, model: torch.nn.Module) -> torch.nn.Module:
    """Save a trained model's checkpoint, then load it back as an evaluation run does."""
    path = os.path.join(_out(args), "last.pt")
    ckpt.save(path, model, {"acc": 0.5})
    state = ckpt.load(path, map_location="cpu")
    model.load_state_dict(state["model"], strict=args.strict_load)
    return model.eval()


def _loader(args, ds) -> DataLoader:
    return DataLoader(ds, batch_size=args.batch_size, num_workers=args.workers)


def map_location_cuda(args) -> None:
    out = _out(args)
    path = os.path.join(out, "best.pt")
    ckpt.save(path, Classifier(), {"acc": 0.71})
    with open(os.path.join(out, "best.json"), "w") as f:
        json.dump({"device": "cuda:0", "epoch": 7}, f)  # written by the training job, on its GPU host
    with open(os.path.join(out, "best.json")) as f:
        meta = json.load(f)
    print(f"loading {path} (trained on {meta['device']}, epoch {meta['epoch']})")
    state = ckpt.load(path, map_location=meta["device"])
    Classifier().load_state_dict(state["model"], strict=args.strict_load)


def weights_only_numpy(args) -> None:
    path = os.path.join(_out(args), "best.pt")
    accs = [0.61, 0.68, 0.7]
    ckpt.save(path, Classifier(), {"best_acc": ckpt.best_metric(accs), "epochs": len(accs)})
    print(f"saved {path}; evaluating it")
    state = ckpt.load(path)
    Classifier().load_state_dict(state["model"], strict=args.strict_load)


def trace_dict_output(args) -> None:
    model = _restore(args, ClassifierWithAux())
    x = torch.randn(args.batch_size, 3, 16, 16)
    print("tracing for the serving bundle")
    traced = torch.jit.trace(model, x)
    traced.save(os.path.join(_out(args), "model.ts"))


def export_dynamic_batch(args) -> None:
    model = _restore(args, FlatHead(batch_size=args.batch_size))
    x = torch.randn(args.batch_size, 3, 16, 16)
    batch = torch.export.Dim("batch", min=1, max=64)
    print("exporting with a dynamic batch")
    ep = torch.export.export(model, (x,), dynamic_shapes={"x": {0: batch}})
    torch.export.save(ep, os.path.join(_out(args), "model.pt2"))


def quantize_static(args) -> None:
    from torch.ao import quantization as tq

    model = _restore(args, Classifier())
    model.qconfig = tq.get_default_qconfig("x86")
    prepared = tq.prepare(model)
    for x, _ in _loader(args, EvalImages(n=16)):
        prepared(x)
    quantized = tq.convert(prepared)
    print("calibrated and converted; checking the int8 model")
    x, y = EvalImages(n=8)[0]
    print(quantized(x[None]).argmax(1))


def metric_empty_class(args) -> None:
    model = _restore(args, Classifier(num_classes=4))
    ds = EvalImages(n=24, classes=[0, 1, 3], seed=1)  # the held-out split has no image of class 2
    preds, targets = [], []
    with torch.no_grad():
        for x, y in _loader(args, ds):
            preds.append(model(x).argmax(1))
            targets.append(y)
    recall = metrics.per_class_recall(torch.cat(preds), torch.cat(targets), num_classes=4)
    print(f"macro recall {metrics.macro_recall(recall):.3f}")


def worker_mmap_rewritten(args) -> None:
    model = _restore(args, Classifier())
    path = os.path.join(_out(args), "feats.pt")
    n = 64
    torch.save(torch.randn(n, 4096), path)
    ds = CachedFeatures(path, torch.arange(n) % 4)
    print(f"features cache {path}: {len(ds)} rows, memory-mapped")
    torch.save(torch.randn(1, 4096), path)  # the smoke-test split refreshes the same cache file
    total = 0
    for _feats, y in _loader(args, ds):
        total += len(y)
    print(f"evaluated {total} cached rows with {type(model).__name__}")


def inference_prototypes(args) -> None:
    model = _restore(args, Classifier())
    ds = EvalImages(n=16)
    with torch.inference_mode():
        protos = torch.stack([model.features(ds.x[ds.y == c]).mean(0) for c in range(4)])
    print(f"prototypes {tuple(protos.shape)} from the evaluation pass; adapting")
    model.train()
    for x, y in _loader(args, ds):
        emb = model.features(x)
        for c in range(4):
            if (y == c).any():
                protos[c].mul_(0.9).add_(emb[y == c].mean(0).detach(), alpha=0.1)
    print("adapted")


TASKS = {
    "ev_map_location_cuda": map_location_cuda,
    "ev_weights_only_numpy": weights_only_numpy,
    "ev_trace_dict_output": trace_dict_output,
    "ev_export_dynamic_batch": export_dynamic_batch,
    "ev_quantize_no_stub": quantize_static,
    "ev_metric_empty_class": metric_empty_class,
    "ev_worker_mmap_rewritten": worker_mmap_rewritten,
    "ev_inference_prototypes": inference_prototypes,
}
