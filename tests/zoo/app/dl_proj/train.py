"""dl_proj's entry: python train.py --case NAME. The cache is prepared as a killed earlier run left it."""

import argparse
import os
import tempfile

from fetchkit import archive, cache, data


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--case", required=True)
    args = parser.parse_args()
    cache_dir = tempfile.mkdtemp(prefix="dl_proj_cache_")
    root = tempfile.mkdtemp(prefix="dl_proj_data_")
    print(f"case {args.case}, cache {cache_dir}, data {root}", flush=True)
    blob = archive.digits_npz()
    if args.case == "dl_zip_partial":
        archive.write_zip(os.path.join(cache_dir, "digits.zip"), {"digits/train.npz": blob})
        archive.truncate(os.path.join(cache_dir, "digits.zip"), 0.5)
        archive.unzip(cache.cached(cache_dir, "digits.zip"), root)
    elif args.case == "dl_gzip_truncated":
        archive.write_gz(os.path.join(cache_dir, "digits.npz.gz"), blob)
        archive.truncate(os.path.join(cache_dir, "digits.npz.gz"), 0.6)
        ds = data.from_npz(archive.gunzip(cache.cached(cache_dir, "digits.npz.gz")))
        print(f"final loss {data.fit(ds):.4f}", flush=True)
    elif args.case == "dl_checksum_mismatch":
        archive.write_zip(os.path.join(cache_dir, "digits.zip"), {"digits/train.npz": blob})
        path = cache.cached(cache_dir, "digits.zip")
        cache.verify(path)
        archive.unzip(path, root)
    elif args.case == "dl_layout_missing":
        archive.write_zip(os.path.join(cache_dir, "digits.zip"), {"digits-v2/train/0.npy": blob[:64]})
        archive.unzip(cache.cached(cache_dir, "digits.zip"), root)
        ds = data.Digits(root)
        print(f"final loss {data.fit(ds):.4f}", flush=True)
    else:
        raise SystemExit(f"unknown case {args.case}")


if __name__ == "__main__":
    main()
