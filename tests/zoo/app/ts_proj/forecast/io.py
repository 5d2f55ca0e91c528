"""The store export: hourly sales per store, written as CSV at start (the program's own fixture), read with pandas."""

import os

import numpy as np
import pandas as pd


def write_export(folder: str, task: str) -> str:
    rng = np.random.default_rng(0)
    hours = pd.date_range("2024-03-01", periods=160, freq="h")
    rows = []
    for store in ["S1", "S2"]:
        for k, ts in enumerate(hours):
            sales = 50 + 10 * np.sin(k / 24 * 2 * np.pi) + rng.normal(0, 2)
            temp = 21.5 if task == "ts_std_zero_nan" else 15 + rng.normal(0, 3)
            rows.append(
                [ts.strftime("%Y-%m-%d %H:%M"), store, f"{sales:.2f}", str(k % 7 == 0 and 1 or 0), f"{temp:.1f}"]
            )
    if task == "ts_worker_object_column":
        rows[40][2] = "1,204.00"  # a manual correction typed with a thousands separator
    if task == "ts_worker_nullable_int":
        rows[30][3] = ""  # the promo flag left blank
    if task == "ts_datetime_malformed":
        rows[23][0] = "2024-03-01 24:00"  # the point-of-sale export's midnight
    if task == "ts_worker_index_gaps":
        for r in (30, 31, 32):
            rows[r][4] = ""  # the temperature sensor was offline
    path = os.path.join(folder, "sales.csv")
    with open(path, "w") as f:
        f.write("ts,store,sales,promo,temp_c\n")
        for r in rows:
            f.write(",".join(f'"{v}"' if "," in v else v for v in r) + "\n")
    if task == "ts_window_negative_len":
        with open(os.path.join(folder, "new_store.csv"), "w") as f:
            f.write("ts,store,sales,promo,temp_c\n")
            for k, ts in enumerate(hours[:30]):
                f.write(f"{ts.strftime('%Y-%m-%d %H:%M')},S9,{40 + k % 5}.0,0,14.0\n")
    return path


def read_sales(path: str, nullable_promo: bool = False) -> pd.DataFrame:
    dtype = {"promo": "Int64"} if nullable_promo else None
    frame = pd.read_csv(path, dtype=dtype)
    frame["ts"] = pd.to_datetime(frame["ts"], format="%Y-%m-%d %H:%M")
    return frame
