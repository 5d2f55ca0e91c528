"""Fit the window MLP on store S1's first 120 hours, validate on the rest, keep the best checkpoint, reload it."""

import os
import tempfile

import torch
from torch.utils.data import DataLoader

from forecast import features, io
from forecast.model import WindowMLP
from forecast.windows import FEATURES, SalesWindows

HORIZON = 12


def loader(frame, args, scaler=None, by_label=False):
    ds = SalesWindows(frame, args.window, HORIZON, scaler=scaler, by_label=by_label)
    return DataLoader(ds, batch_size=16, shuffle=False, num_workers=args.workers)


def fit(frame, args, ckpt_dir, name):
    n = len(frame)
    train, val = frame.iloc[: n * 3 // 4], frame.iloc[n * 3 // 4 - args.window :]
    columns = list(FEATURES)
    scaler = None
    if args.task == "ts_worker_scaler_columns":
        train = features.add_lag(train, 1)
        columns.append("sales_lag1")
    if args.scale:
        scaler = features.Scaler().fit(train, columns)
    by_label = args.task == "ts_worker_index_gaps"
    train_loader = loader(train, args, scaler, by_label)
    val_loader = loader(val, args, scaler, by_label)
    model = WindowMLP(args.window, len(columns) if scaler else len(FEATURES), HORIZON)
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3)
    epochs = 2
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=epochs * len(train_loader))
    best, best_path = float("inf"), os.path.join(ckpt_dir, f"{name}-best.pt")
    for epoch in range(epochs):
        model.train()
        for x, y, _promo in train_loader:
            loss = torch.nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
        model.eval()
        with torch.no_grad():
            val_loss = sum(float(torch.nn.functional.mse_loss(model(x), y)) for x, y, _ in val_loader)
        print(f"{name} epoch {epoch} train {loss.item():.4f} val {val_loss:.4f}", flush=True)
        if val_loss < best:
            best = val_loss
            torch.save(model.state_dict(), best_path)
    model.load_state_dict(torch.load(best_path, weights_only=True))
    return best


def main(args) -> None:
    folder = tempfile.mkdtemp(prefix="ts_fc_")
    path = io.write_export(folder, args.task)
    frame = io.read_sales(path, nullable_promo=args.task == "ts_worker_nullable_int")
    if args.task == "ts_worker_index_gaps":
        frame = frame.dropna(subset=["temp_c"])
    frame = features.add_calendar(frame)
    series = {"S1": frame[frame["store"] == "S1"]}
    if args.task == "ts_window_negative_len":
        series["S9"] = features.add_calendar(io.read_sales(os.path.join(folder, "new_store.csv")))
    for name, part in series.items():
        print(f"{name}: {len(part)} hours, window {args.window}", flush=True)
        best = fit(part, args, folder, name)
        print(f"{name}: best val {best:.4f}", flush=True)
