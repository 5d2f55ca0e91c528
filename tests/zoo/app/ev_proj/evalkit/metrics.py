"""The project's own evaluation metrics."""


def per_class_recall(preds, targets, num_classes: int) -> dict:
    correct = [0] * num_classes
    total = [0] * num_classes
    for p, t in zip(preds.tolist(), targets.tolist()):
        total[t] += 1
        correct[t] += int(p == t)
    return {c: correct[c] / total[c] for c in range(num_classes)}


def macro_recall(recall: dict) -> float:
    return sum(recall.values()) / len(recall)
