"""Indexing the dataset's shards with asyncio: one TaskGroup per split, one task per shard."""

import asyncio
import pathlib
import struct
import tempfile

HEADER = struct.Struct("<4sIQ")  # magic, record count, payload offset: 16 bytes


def write_shards(root: pathlib.Path, split: str, n: int, short: int = -1) -> list[pathlib.Path]:
    paths = []
    for i in range(n):
        p = root / f"{split}-{i:03d}.shard"
        blob = HEADER.pack(b"EGSH", 64, HEADER.size) + bytes(64)
        p.write_bytes(blob[:12] if i == short else blob)  # a copy cut short by a full disk
        paths.append(p)
    return paths


async def read_header(path: pathlib.Path) -> int:
    await asyncio.sleep(0.01)
    data = path.read_bytes()
    magic, count, offset = HEADER.unpack(data[: HEADER.size])
    return count


async def index_split(paths: list[pathlib.Path]) -> int:
    async with asyncio.TaskGroup() as tg:
        tasks = [tg.create_task(read_header(p)) for p in paths]
    return sum(t.result() for t in tasks)


async def index_all(splits: dict[str, list[pathlib.Path]]) -> dict[str, int]:
    async with asyncio.TaskGroup() as tg:
        tasks = {name: tg.create_task(index_split(paths)) for name, paths in splits.items()}
    return {name: t.result() for name, t in tasks.items()}


def build_index() -> dict[str, int]:
    root = pathlib.Path(tempfile.mkdtemp(prefix="eg_shards_"))
    splits = {"train": write_shards(root, "train", 6), "val": write_shards(root, "val", 3, short=2)}
    counts: dict[str, int] = {}
    try:
        counts = asyncio.run(index_all(splits))
    except* FileNotFoundError as group:
        print(f"shards missing, reindex later: {group.exceptions}", flush=True)
    return counts


async def keepalive(beats: list[int]) -> None:
    while True:
        try:
            await asyncio.sleep(0.2)
            beats.append(1)
        except asyncio.CancelledError:
            continue  # "a dropped connection must not stop the heartbeat"


async def fetch_manifest(root: pathlib.Path) -> dict:
    await asyncio.sleep(0.3)
    return {"shards": sorted(p.name for p in root.iterdir())[0]}


async def stream_with_heartbeat(root: pathlib.Path) -> dict:
    beats: list[int] = []
    async with asyncio.TaskGroup() as tg:
        tg.create_task(keepalive(beats))
        manifest = tg.create_task(fetch_manifest(root))
    return manifest.result()


def stream_index() -> dict:
    root = pathlib.Path(tempfile.mkdtemp(prefix="eg_stream_"))  # empty: the sync never ran
    return asyncio.run(stream_with_heartbeat(root))
