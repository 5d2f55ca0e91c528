"""Ship the trained tagger: TorchScript for the serving box, torch.export for the compiler."""

import torch


def script_and_save(model, path: str):
    scripted = torch.jit.script(model.eval())
    torch.jit.save(scripted, path)
    return path


def load_and_predict(path: str, x):
    served = torch.jit.load(path)
    return served.predict(x)


def export_for_serving(model, example):
    return torch.export.export(model.eval(), (example,))


def evaluate_exported(program, batches):
    served = program.module()
    correct = total = 0
    for x, y in batches:
        correct += int((served(x).argmax(-1) == y).sum())
        total += len(y)
    return correct / total


def export_pooler(pooler, frames, lengths):
    return torch.export.export(pooler.eval(), (frames, lengths))
