// xt_proj's own operators, compiled at run time by torch.utils.cpp_extension.load_inline (xtops/kernels.py).
#include <torch/library.h>

#include <chrono>
#include <immintrin.h>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

// Label-smoothed cross-entropy, one row per at::parallel_for chunk element.
at::Tensor smooth_ce(const at::Tensor &logits, const at::Tensor &target, double eps) {
    TORCH_CHECK(logits.dim() == 2 && logits.scalar_type() == at::kFloat, "smooth_ce: logits must be 2-D float32");
    TORCH_CHECK(target.dim() == 1 && target.scalar_type() == at::kLong, "smooth_ce: target must be 1-D int64");
    const int64_t n = logits.size(0), c = logits.size(1);
    auto lg = logits.accessor<float, 2>();
    auto tg = target.accessor<int64_t, 1>();
    auto out = at::empty({n}, logits.options());
    auto o = out.accessor<float, 1>();
    at::parallel_for(0, n, 1, [&](int64_t begin, int64_t end) {
        for (int64_t i = begin; i < end; ++i) {
            const int64_t t = tg[i];
            TORCH_CHECK(t >= 0 && t < c, "smooth_ce: target ", t, " at row ", i, " is outside [0, ", c, ")");
            float mx = lg[i][0];
            for (int64_t j = 1; j < c; ++j) mx = std::max(mx, lg[i][j]);
            double lse = 0, mean = 0;
            for (int64_t j = 0; j < c; ++j) {
                lse += std::exp(lg[i][j] - mx);
                mean += lg[i][j];
            }
            lse = std::log(lse) + mx;
            o[i] = (float)((1 - eps) * (lse - lg[i][t]) + eps * (lse - mean / c));
        }
    });
    return out;
}

// Per-class counts for the class-balanced weights (no bounds check: labels are trusted).
at::Tensor class_counts(const at::Tensor &labels, int64_t num_classes) {
    auto counts = at::zeros({num_classes}, labels.options().dtype(at::kLong));
    int64_t *c = counts.data_ptr<int64_t>();
    const int64_t *l = labels.data_ptr<int64_t>();
    for (int64_t i = 0; i < labels.numel(); ++i) c[l[i]] += 1;
    return counts;
}

// Brightness jitter.
at::Tensor jitter(const at::Tensor &img, double strength) {
    return (img * (1.0 + strength)).clamp(0.0, 1.0);
}

// Mixup of two half-precision images; the AVX-512 FP16 path is the one tuned for the cluster's nodes.
__attribute__((target("avx512fp16,avx512bw,avx512vl"))) static void mix_avx512fp16(const at::Half *a,
                                                                                  const at::Half *b, at::Half *o,
                                                                                  int64_t n, float lam) {
    const __m512h vl = _mm512_set1_ph((_Float16)lam), vr = _mm512_set1_ph((_Float16)(1.0f - lam));
    int64_t i = 0;
    for (; i + 32 <= n; i += 32) {
        __m512h x = _mm512_loadu_ph(a + i), y = _mm512_loadu_ph(b + i);
        _mm512_storeu_ph(o + i, _mm512_fmadd_ph(x, vl, _mm512_mul_ph(y, vr)));
    }
    for (; i < n; ++i) o[i] = (float)a[i] * lam + (float)b[i] * (1.0f - lam);
}

at::Tensor mix_half(const at::Tensor &a, const at::Tensor &b, double lam, const std::string &isa) {
    TORCH_CHECK(a.scalar_type() == at::kHalf && a.sizes() == b.sizes(), "mix_half: two float16 images of one size");
    auto x = a.contiguous(), y = b.contiguous();
    auto out = at::empty_like(x);
    const int64_t n = x.numel();
    if (isa == "avx512fp16") {
        mix_avx512fp16(x.data_ptr<at::Half>(), y.data_ptr<at::Half>(), out.data_ptr<at::Half>(), n, (float)lam);
    } else {
        auto *p = x.data_ptr<at::Half>(), *q = y.data_ptr<at::Half>(), *r = out.data_ptr<at::Half>();
        for (int64_t i = 0; i < n; ++i) r[i] = (float)p[i] * lam + (float)q[i] * (1.0 - lam);
    }
    return out;
}

// Random crop of a CHW image.
at::Tensor random_crop(const at::Tensor &img, int64_t h, int64_t w, int64_t seed) {
    const int64_t H = img.size(1), W = img.size(2);
    if (h > H || w > W)
        throw std::out_of_range("random_crop: a " + std::to_string(h) + "x" + std::to_string(w) +
                                " crop does not fit a " + std::to_string(H) + "x" + std::to_string(W) + " image");
    const int64_t top = seed % (H - h + 1), left = (seed / 7) % (W - w + 1);
    return img.narrow(1, top, h).narrow(2, left, w).contiguous();
}

// Loader statistics, flushed by a background thread.
static std::mutex stats_mu;
static std::vector<double> stats;

void start_stats_flusher() {
    std::thread([] {
        for (;;) {
            std::lock_guard<std::mutex> hold(stats_mu);
            stats.clear();  // "flush"
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
    }).detach();
}

void record_stat(double v) {
    std::lock_guard<std::mutex> hold(stats_mu);
    stats.push_back(v);
}

TORCH_LIBRARY(xt, m) {
    m.def("class_counts(Tensor labels, int num_classes) -> Tensor");
    m.def("jitter(Tensor img, float strength) -> Tensor");
}

TORCH_LIBRARY_IMPL(xt, CPU, m) {
    m.impl("class_counts", &class_counts);
    m.impl("jitter", &jitter);
}
