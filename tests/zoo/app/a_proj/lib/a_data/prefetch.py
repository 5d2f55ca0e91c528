"""A small thread prefetcher used instead of DataLoader workers for datasets that are cheap to read."""

from concurrent.futures import ThreadPoolExecutor

from a_data.collate import nested_collate


def prefetch_batches(dataset, batch_size: int, threads: int):
    with ThreadPoolExecutor(max_workers=threads, thread_name_prefix="prefetch") as pool:
        for start in range(0, len(dataset), batch_size):
            idx = range(start, min(start + batch_size, len(dataset)))
            futures = [pool.submit(dataset.__getitem__, i) for i in idx]
            yield nested_collate([f.result() for f in futures])
