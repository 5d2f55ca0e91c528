/* The clamp the fast path uses (plain C; the compiler vectorises it). */
void iops_clip_simd(float *x, int n, float lo, float hi) {
    for (int i = 0; i < n; i++) x[i] = x[i] < lo ? lo : (x[i] > hi ? hi : x[i]);
}
