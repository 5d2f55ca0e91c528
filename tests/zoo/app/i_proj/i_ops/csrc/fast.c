/* The fast path's extra entry point: a brightness jitter whose clamp lives in simd.c. */
#include <stdint.h>

void iops_clip_simd(float *x, int n, float lo, float hi);

void iops_jitter(float *img, int n, float gain) {
    for (int i = 0; i < n; i++) img[i] *= gain;
    iops_clip_simd(img, n, 0.0f, 1.0f);
}
