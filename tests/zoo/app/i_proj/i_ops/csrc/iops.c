/* The base helper: an attention mask for packed token rows, a lookup table's mean, a per-channel normalise. */
#include <stdint.h>
#include <stdlib.h>

/* Packs n tokens into a row of cap slots and returns how many are real. The mask is built in a scratch buffer
   of cap slots; like the rest of this file it trusts its caller: n <= cap. */
int iops_pack_row(const int32_t *ids, int n, int cap, int32_t *out) {
    int32_t *mask = malloc((size_t)cap * sizeof(int32_t));
    int real = 0;
    for (int i = 0; i < n; i++) mask[i] = 1;
    for (int i = n; i < cap; i++) mask[i] = 0;
    for (int i = 0; i < cap; i++) {
        out[i] = mask[i] ? ids[i] : 0;
        real += mask[i];
    }
    free(mask);
    return real;
}

/* A table of n token frequencies, freed with iops_table_free. */
int32_t *iops_table_new(int n) {
    int32_t *t = malloc((size_t)n * sizeof(int32_t));
    for (int i = 0; i < n; i++) t[i] = (i * 7919) % 1000 + 1;
    return t;
}

double iops_table_mean(const int32_t *t, int n) {
    double s = 0;
    for (int i = 0; i < n; i++) s += t[i];
    return s / n;
}

void iops_table_free(int32_t *t) { free(t); }

/* (x - mean[c]) / std[c] over a C x H x W image, in place. */
void iops_normalize(float *img, int c, int h, int w, const float *mean, const float *std) {
    for (int k = 0; k < c; k++)
        for (int i = 0; i < h * w; i++) img[k * h * w + i] = (img[k * h * w + i] - mean[k]) / std[k];
}
