"""Before a quantisation pass the attention block is traced with `torch.fx.symbolic_trace`; its forward unpacks
the input's shape (`b, t, d = x.shape`) to split heads; shape numbers are fine, but it also unpacks the qkv
projection's chunks into a loop over heads (`for h in q.split(...)`), iterating a Proxy, which symbolic tracing
cannot follow."""

import torch
import torch.fx


class HeadMix(torch.nn.Module):
    def __init__(self, d: int = 32, heads: int = 4) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = torch.nn.Linear(d, 3 * d)
        self.out = torch.nn.Linear(d, d)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        outs = []
        for qh, kh, vh in zip(q.split(x.shape[-1] // self.heads, -1), k.split(8, -1), v.split(8, -1)):
            att = torch.softmax(qh @ kh.transpose(-1, -2) / 8**0.5, -1)
            outs.append(att @ vh)
        return self.out(torch.cat(outs, -1))


def main() -> None:
    model = HeadMix()
    print(f"eager out {tuple(model(torch.randn(2, 10, 32)).shape)}", flush=True)
    gm = torch.fx.symbolic_trace(model)
    print(gm.code, flush=True)
