"""The cases `train.py --case NAME` runs."""

from memtrain.loop import train_growing, train_scans, train_shards

CASES = {
    "growing_losses": train_growing,
    "scan_header_endian": train_scans,
    "lmdb_map_size": train_shards,
}
