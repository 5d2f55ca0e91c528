"""The training tasks (scripts/train.py --task NAME)."""

import torch
from torch.utils.data import DataLoader

from recsys import data, ids
from recsys.model import TwoTower, bpr_loss


def loader(rows, workers, **kw):
    ds = data.Clicks(rows, kw.pop("pop", None), kw.pop("negatives", 0))
    collate = kw.pop("collate", data.collate_bags)
    return DataLoader(ds, batch_size=8, num_workers=workers, collate_fn=collate, **kw)


def fit(model, batches, opt, steps=4):
    for step, (users, items, flat, offsets, _negs) in enumerate(batches):
        pos = model(users, items, flat, offsets)
        neg = model(users, (items + 1) % data.N_ITEMS, flat, offsets)
        loss = bpr_loss(pos, neg)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(f"step {step} loss {loss.item():.4f}", flush=True)
        if step + 1 == steps:
            break


def offsets_cumsum(args):
    rows = data.click_log()
    model = TwoTower(20, data.N_ITEMS)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    batches = loader(rows, args.workers, collate=lambda b: data.collate_bags(b, leading_zero=False))
    fit(model, batches, opt)


def offsets_concat(args):
    """Score a user's history together with the session's items as one EmbeddingBag call."""
    rows = data.click_log()
    model = TwoTower(20, data.N_ITEMS)
    for _users, items, flat, offsets, _ in loader(rows, args.workers):
        session = items.view(-1)
        session_offsets = torch.arange(len(session))
        both = torch.cat([flat, session])
        both_offsets = torch.cat([offsets, session_offsets])
        bags = model.history(both, both_offsets)
        print("bags", tuple(bags.shape), flush=True)


def hashed_range(args):
    """Serving: new users hashed into buckets; the table was sized by the item buckets' setting."""
    user_buckets, item_buckets = 1000, 64
    model = TwoTower(item_buckets, data.N_ITEMS)
    model.eval()
    requests = [f"user-{n}" for n in range(200, 216)]
    ids_ = torch.tensor([[ids.bucket(u, user_buckets), 0] for u in requests])
    print(f"serving {len(requests)} new users", flush=True)
    with torch.no_grad():
        scores = model.history(ids_)
    print(scores.shape)


def adagrad_sparse_wd(args):
    rows = data.click_log()
    model = TwoTower(20, data.N_ITEMS, sparse=True)
    opt = torch.optim.Adagrad(model.parameters(), lr=0.05, weight_decay=1e-5)
    fit(model, loader(rows, args.workers), opt)


def negsample_zero(args):
    rows = data.click_log()
    pop = data.popularity(data.click_log(n=3, seed=9))  # yesterday's clicks only
    print("items clicked yesterday:", int((pop > 0).sum()), flush=True)
    model = TwoTower(20, data.N_ITEMS)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for users, items, flat, offsets, negs in loader(rows, args.workers, pop=pop, negatives=4):
        pos = model(users, items, flat, offsets)
        neg = model(users, negs[:, 0], flat, offsets)
        loss = bpr_loss(pos, neg)
        opt.zero_grad()
        loss.backward()
        opt.step()


def vocab_pool(args):
    rows = data.click_log()
    lines = [f"{u}\t{i}\t" + ",".join(f"f{h}" for h in hist) for u, i, hist in rows]
    lines[37] = lines[37].replace("\t", " ", 1)  # one row written with a space for its first tab
    shards = [lines[k :: args.workers] for k in range(args.workers)]
    vocab = ids.build_vocab(shards, args.workers)
    print("vocab", len(vocab), flush=True)


def hogwild(args):
    from recsys.hogwild import train_hogwild

    train_hogwild(args.procs)


TASKS = {
    "rs_offsets_cumsum": offsets_cumsum,
    "rs_offsets_concat": offsets_concat,
    "rs_hashed_range": hashed_range,
    "rs_adagrad_sparse_wd": adagrad_sparse_wd,
    "rs_negsample_zero": negsample_zero,
    "rs_vocab_pool": vocab_pool,
    "rs_hogwild_sparseadam": hogwild,
}
