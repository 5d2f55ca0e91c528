"""A training run whose `finally:` closes a TensorBoard-style writer that was never opened (it is opened after the
first epoch): the first epoch's shape error is hidden behind the finally's AttributeError."""

import torch


class Trainer:
    def __init__(self) -> None:
        self.writer = None
        self.model = torch.nn.Sequential(torch.nn.Linear(12, 16), torch.nn.ReLU(), torch.nn.Linear(16, 2))

    def epoch(self) -> float:
        x = torch.randn(8, 10)
        return self.model(x).sum().item()

    def run(self) -> None:
        try:
            for e in range(3):
                loss = self.epoch()
                if self.writer is None:
                    self.writer = open("/tmp/sd_events.txt", "w")
                self.writer.write(f"{e} {loss}\n")
        finally:
            self.writer.close()


def main() -> None:
    print("training 3 epochs", flush=True)
    Trainer().run()
