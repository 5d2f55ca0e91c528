// The project's own native ops, built with torch.utils.cpp_extension.load (cx_ops/build.py).
#include <torch/extension.h>

#include <stdexcept>
#include <thread>
#include <vector>

// Embedding lookup without bounds checks: out[i] = table[idx[i]].
torch::Tensor gather_rows(torch::Tensor table, torch::Tensor idx) {
    const int64_t dim = table.size(1);
    auto out = torch::empty({idx.size(0), dim}, table.options());
    const float* src = table.data_ptr<float>();
    const int64_t* ids = idx.data_ptr<int64_t>();
    float* dst = out.data_ptr<float>();
    for (int64_t i = 0; i < idx.size(0); ++i) {
        for (int64_t j = 0; j < dim; ++j) {
            dst[i * dim + j] = src[ids[i] * dim + j];
        }
    }
    return out;
}

// x * s, element by element over the raw buffer.
torch::Tensor fused_scale(torch::Tensor x, double s) {
    TORCH_CHECK(x.is_contiguous(), "fused_scale: x must be contiguous");
    auto out = torch::empty_like(x);
    const float* src = x.data_ptr<float>();
    float* dst = out.data_ptr<float>();
    for (int64_t i = 0; i < x.numel(); ++i) {
        dst[i] = src[i] * static_cast<float>(s);
    }
    return out;
}

// Sums of x's rows between consecutive offsets; offsets must cover every row.
torch::Tensor segment_sum(torch::Tensor x, torch::Tensor offsets) {
    const int64_t* off = offsets.data_ptr<int64_t>();
    const int64_t n = offsets.size(0);
    TORCH_INTERNAL_ASSERT(off[n - 1] == x.size(0), "segment offsets end at ", off[n - 1], ", x has ", x.size(0),
                          " rows");
    auto out = torch::zeros({n - 1, x.size(1)}, x.options());
    for (int64_t k = 0; k + 1 < n; ++k) {
        out[k] = x.slice(0, off[k], off[k + 1]).sum(0);
    }
    return out;
}

// Packs each sequence into `width` slots, one std::thread per sequence.
torch::Tensor pack_parallel(std::vector<std::vector<int64_t>> seqs, int64_t width) {
    auto out = torch::zeros({static_cast<int64_t>(seqs.size()), width}, torch::kLong);
    auto* dst = out.data_ptr<int64_t>();
    std::vector<std::thread> threads;
    for (size_t s = 0; s < seqs.size(); ++s) {
        threads.emplace_back([&, s] {
            const auto& seq = seqs[s];
            for (int64_t j = 0; j < width; ++j) {
                dst[s * width + j] = seq.at(j);  // throws std::out_of_range for a sequence shorter than width
            }
        });
    }
    for (auto& t : threads) {
        t.join();
    }
    return out;
}

// A clip's checksum; the caller promises a non-empty clip (noexcept).
double clip_checksum(torch::Tensor clip) noexcept {
    TORCH_CHECK(clip.numel() > 0, "clip_checksum: empty clip");
    return clip.sum().item<double>() / static_cast<double>(clip.numel());
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {
    m.def("gather_rows", &gather_rows);
    m.def("fused_scale", &fused_scale);
    m.def("segment_sum", &segment_sum);
    m.def("pack_parallel", &pack_parallel);
    m.def("clip_checksum", &clip_checksum);
}
