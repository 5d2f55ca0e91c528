"""The recipes: each loads the pretrained weights, adapts the model to 3 classes and trains a few steps."""

import torch
from torch import nn
from torch.utils.checkpoint import checkpoint
from torch.utils.data import DataLoader

from tune.adapters import add_lora, merge_native
from tune.backbone import Net, batch, pretrained
from tune.data import Images
from tune.freeze import freeze_all_but, layer_groups

CLASSES = 3


def new_head_model() -> Net:
    """The pretrained model with a new head for CLASSES classes (the old head's weights left out)."""
    state, _ = pretrained()
    model = Net(CLASSES)
    body = {k: v for k, v in state.items() if not k.startswith("head.")}
    model.load_state_dict(body, strict=False)
    return model


def fit(model: nn.Module, opt: torch.optim.Optimizer, steps: int, sched=None) -> None:
    for step in range(steps):
        x, y = batch(classes=CLASSES)
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        if sched is not None:
            sched.step()
        print(f"step {step} loss {loss.item():.3f}", flush=True)


def lora_optim_merged(args) -> None:
    model = new_head_model()
    adapters = add_lora(model, ["proj"])
    for ad in adapters:
        ad.merge()
    params = [ad.weight for ad in adapters] + list(model.head.parameters())
    opt = torch.optim.AdamW(params, lr=1e-3)
    fit(model, opt, args.steps)


def freeze_merged(args) -> None:
    model = new_head_model()
    for ad in add_lora(model, ["proj"]):
        ad.merge()
    freeze_all_but(model, keep=("head",))
    opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.1)
    fit(model, opt, args.steps)


def lambda_lr_groups(args) -> None:
    model = new_head_model()
    opt = torch.optim.SGD(layer_groups(model, base_lr=0.1), lr=0.1, momentum=0.9)
    warmup = lambda step: min(1.0, (step + 1) / 10)  # noqa: E731
    constant = lambda step: 1.0  # noqa: E731
    # head, proj, backbone: written before the backbone was split into stem and block
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lr_lambda=[constant, warmup, warmup])
    fit(model, opt, args.steps, sched)


def resume_head_classes(args) -> None:
    _, opt_state = pretrained()
    model = new_head_model()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    opt.load_state_dict(opt_state)  # keep Adam's moments from pretraining
    fit(model, opt, args.steps)


def unfreeze_add_group(args) -> None:
    model = new_head_model()
    model.requires_grad_(False)
    model.head.requires_grad_(True)
    opt = torch.optim.SGD(model.head.parameters(), lr=0.1)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=8)
    accum = 2
    for step in range(8):
        if step == 3:  # gradual unfreezing: the projection joins with a lower learning rate
            model.proj.requires_grad_(True)
            opt.add_param_group({"params": model.proj.parameters(), "lr": 0.01})
        x, y = batch(classes=CLASSES)
        (nn.functional.cross_entropy(model(x), y) / accum).backward()
        if step % accum == accum - 1:
            opt.step()
            sched.step()
            opt.zero_grad()
        print(f"micro-step {step}", flush=True)


def stage(model: Net, h: torch.Tensor, keep: torch.Tensor | None = None) -> torch.Tensor:
    h = model.block(h)
    return h if keep is None else h * keep


def checkpoint_kwargs(args) -> None:
    model = new_head_model()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for step in range(args.steps):
        x, y = batch(classes=CLASSES)
        keep = (torch.rand(x.shape[0], 1, 1, 1) > 0.1).float()  # stochastic depth
        h = model.stem(x)
        h = checkpoint(stage, model, h, keep=keep, use_reentrant=True)
        out = model.head(torch.relu(model.proj(model.pool(h).flatten(1))))
        loss = nn.functional.cross_entropy(out, y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.3f}", flush=True)


def native_merge(args) -> None:
    model = new_head_model()
    adapters = add_lora(model, ["proj", "head"], ranks={"head": 0})  # no adapter on the new head
    opt = torch.optim.SGD([p for ad in adapters for p in (ad.lora_A, ad.lora_B)], lr=0.1)
    fit(model, opt, args.steps)
    print("merging adapters for export", flush=True)
    merge_native(adapters, rank=4)
    torch.save(model.state_dict(), "/tmp/tune_merged.pt")


def worker_resize(args) -> None:
    model = new_head_model()
    model.requires_grad_(False)
    model.head.requires_grad_(True)
    opt = torch.optim.SGD(model.head.parameters(), lr=0.1)
    loader = DataLoader(Images(classes=CLASSES), batch_size=8, num_workers=args.workers)
    for step, (x, y) in enumerate(loader):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.3f}", flush=True)


RECIPES = {
    "ft_lora_optim_merged": lora_optim_merged,
    "ft_freeze_merged_weight": freeze_merged,
    "ft_lambda_lr_groups": lambda_lr_groups,
    "ft_resume_head_classes": resume_head_classes,
    "ft_unfreeze_onecycle_group": unfreeze_add_group,
    "ft_checkpoint_reentrant_kwargs": checkpoint_kwargs,
    "ft_lora_native_merge_segv": native_merge,
    "ft_worker_resize_3d": worker_resize,
}
