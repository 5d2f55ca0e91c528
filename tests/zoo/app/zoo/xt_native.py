"""The ninety-second held-out set's C++ operators (xt_ modes run from main.py or ddp_main.py), built once by
torch.utils.cpp_extension.load_inline into tests/zoo/app/.torch_ext/<name>/ (later runs and ranks reuse the build)."""

import os

from torch.utils.cpp_extension import load_inline

APP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

SOURCE = r"""
#include <pybind11/functional.h>
#include <vector>

// Sums each chunk and reports progress to a Python callback, from every at::parallel_for thread.
double sum_with_progress(const at::Tensor &x, const std::function<void(int64_t)> &progress) {
    auto a = x.accessor<float, 1>();
    std::vector<double> part(x.size(0), 0.0);
    at::parallel_for(0, x.size(0), 1, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
            part[i] = a[i];
            pybind11::gil_scoped_acquire gil;
            progress(i);
        }
    });
    double s = 0;
    for (double v : part) s += v;
    return s;
}

// Packs gradients into one flat bucket; the guard checks on leaving that the bucket was filled.
struct BucketGuard {
    int64_t filled = 0, expected;
    explicit BucketGuard(int64_t n) : expected(n) {}
    ~BucketGuard() {
        TORCH_CHECK(filled == expected, "pack_grads: bucket guard left with ", filled, " of ", expected,
                    " gradients packed");
    }
};

at::Tensor pack_grads(const std::vector<at::Tensor> &grads, int64_t expected) {
    BucketGuard guard(expected);
    std::vector<at::Tensor> flat;
    for (const auto &g : grads) {
        flat.push_back(g.reshape(-1));
        guard.filled += 1;
    }
    return at::cat(flat);
}

// Clips a gradient in place to max_norm and scales it by 1/world_size.
void clip_scale_(at::Tensor grad, double max_norm, int64_t world_size) {
    const double norm = grad.norm().item<double>();
    const double k = (norm > max_norm ? max_norm / norm : 1.0) / world_size;
    grad.mul_(k);
}
"""

_ext = None


def ops():
    global _ext
    if _ext is None:
        build = os.path.join(APP, ".torch_ext", "xt_zoo_ops")
        os.makedirs(build, exist_ok=True)
        _ext = load_inline(
            name="xt_zoo_ops",
            cpp_sources=[SOURCE],
            functions=["sum_with_progress", "pack_grads", "clip_scale_"],
            build_directory=build,
            extra_cflags=["-O2", "-fopenmp"],
            extra_ldflags=["-fopenmp"],
        )
    return _ext
