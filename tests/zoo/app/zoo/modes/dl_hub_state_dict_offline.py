"""Pretrained weights through torch.hub.load_state_dict_from_url with an empty hub cache (TORCH_HOME set to a fresh
folder, as a compute node's scratch would be) and no network: torch.hub tries the download."""

import os
import tempfile

import torch

URL = "https://download.pytorch.org/models/resnet18-f37072fd.pth"


def main() -> None:
    os.environ["TORCH_HOME"] = tempfile.mkdtemp(prefix="dl_torch_home_")
    print(f"hub dir {torch.hub.get_dir()}", flush=True)
    model = torch.nn.Sequential(torch.nn.Conv2d(3, 8, 3), torch.nn.ReLU())
    state = torch.hub.load_state_dict_from_url(URL, progress=False, check_hash=True)
    model.load_state_dict(state, strict=False)
