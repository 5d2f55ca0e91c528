"""The pretraining loop."""

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from contrast import config
from contrast.encoders import Encoder, key_encoder, momentum_update
from contrast.losses import NTXent
from contrast.queue import MemoryBank
from contrast.views import TwoViews, first_view_collate


def pretrain(case: str, views: int) -> None:
    cfg = config.load(case)
    torch.manual_seed(0)
    data = TwoViews(64, cfg["view_pipeline"], start=cfg["train_from"], views=views)
    collate = first_view_collate if cfg["collate"] == "first_view" else None
    loader = DataLoader(
        data, batch_size=cfg["batch_size"], shuffle=False, num_workers=cfg["workers"], collate_fn=collate
    )
    model = Encoder()
    key = key_encoder(model) if cfg["momentum_encoder"] else None
    bank = MemoryBank(len(data), 32) if cfg["bank"] else None
    criterion = NTXent(cfg["temperature"])
    opt = torch.optim.SGD(model.parameters(), lr=cfg["lr"], momentum=0.9)
    for epoch in range(cfg["epochs"]):
        for step, batch in enumerate(loader):
            x1, x2 = batch[:2] if isinstance(batch, (list, tuple)) else batch
            ids = batch[-1]
            z1, z2 = model(x1), model(x2)
            if bank is not None:
                loss = bank.loss(F.normalize(z1, dim=1), F.normalize(z2, dim=1).detach(), cfg["temperature"])
                bank.update(ids, z2.detach())
            else:
                loss = criterion(z1, z2)
            opt.zero_grad()
            loss.backward()
            opt.step()
            if key is not None:
                momentum_update(model, key)
            print(f"epoch {epoch} step {step} loss {loss.item():.4f}", flush=True)
    print("pretraining done", flush=True)
