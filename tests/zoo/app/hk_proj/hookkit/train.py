"""The training loop and the cases it runs."""

import torch
from torch import nn

from hookkit.model import Tagger, batch
from hookkit.probes import ActivationCache, HeadProbe, forgive_head_keys, scale_inputs


def fit(model: nn.Module, steps: int) -> None:
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(steps):
        x, mask, y = batch()
        loss = nn.functional.cross_entropy(model(x, mask), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)


def run(case: str, steps: int) -> None:
    torch.manual_seed(0)
    model = Tagger()
    if case == "hk_prehook_drops_mask":
        model.encoder.register_forward_pre_hook(scale_inputs)
        fit(model, steps)
    elif case == "hk_activation_cache_budget":
        model.encoder.register_forward_hook(ActivationCache())
        fit(model, steps)
    elif case == "hk_probe_replaced_head":
        probe = HeadProbe()
        model.head.register_forward_hook(probe)
        model.head = nn.Linear(16, 4)  # a fresh head for the new label set
        fit(model, steps)
        assert len(probe.logits) == steps, f"head probe saw {len(probe.logits)} of {steps} steps"
    elif case == "hk_load_post_hook_forgive":
        backbone = {k: v for k, v in Tagger().state_dict().items() if not k.startswith("head.")}
        model.register_load_state_dict_post_hook(forgive_head_keys)
        model.load_state_dict(backbone)
        fit(model, steps)
    else:
        raise SystemExit(f"unknown case {case}")
    print("done")
