"""A ROI-pooling extension written for PyTorch 1.0, built with load_inline against today's torch: its AT_CHECK
macro was removed (TORCH_CHECK replaced it), so g++ refuses the source and load_inline raises."""

import os

import torch
from torch.utils.cpp_extension import load_inline

APP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SOURCE = r"""
at::Tensor roi_pool_sum(const at::Tensor &feat, const at::Tensor &rois) {
    AT_CHECK(rois.dim() == 2 && rois.size(1) == 4, "rois must be (N, 4)");
    auto r = rois.accessor<int64_t, 2>();
    auto out = at::zeros({rois.size(0), feat.size(0)}, feat.options());
    for (int64_t i = 0; i < rois.size(0); ++i)
        out[i] = feat.slice(1, r[i][1], r[i][3]).slice(2, r[i][0], r[i][2]).sum({1, 2});
    return out;
}
"""


def main() -> None:
    folder = os.path.join(APP, ".torch_ext", "xt_roi_pool")
    os.makedirs(folder, exist_ok=True)
    roi = load_inline(name="xt_roi_pool", cpp_sources=[SOURCE], functions=["roi_pool_sum"], build_directory=folder)
    feat = torch.rand(8, 16, 16)
    print(roi.roi_pool_sum(feat, torch.tensor([[0, 0, 4, 4]])))
