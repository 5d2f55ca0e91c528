"""The program's C code: compiled once per process with the system's gcc, loaded with ctypes."""

import ctypes
import os
import subprocess
import tempfile

SOURCE = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct { FILE *f; long n; } shard_t;

shard_t *fastc_open(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    shard_t *s = malloc(sizeof *s);
    s->f = f;
    fseek(f, 0, SEEK_END);
    s->n = ftell(f) / 4;
    fseek(f, 0, SEEK_SET);
    return s;
}

long fastc_count(shard_t *s) { return s->n; }

long fastc_read(shard_t *s, float *out, long n) { return (long)fread(out, 4, n, s->f); }

void fastc_close(shard_t *s) { fclose(s->f); free(s); }

static float *g_out;
static long g_cap;

void fastc_set_output(float *out, long cap) { g_out = out; g_cap = cap; }

long fastc_decode(const uint8_t *src, long n) {
    long i;
    for (i = 0; i < n && i < g_cap; i++) g_out[i] = src[i] / 255.0f;
    return i;
}

void fastc_copy_labels(const int64_t *src, int64_t *dst, long n) {
    for (long i = 0; i < n; i++) dst[i] = src[i];
}

void fastc_scale(float *x, float s, long n) {
    for (long i = 0; i < n; i++) x[i] *= s;
}
"""


def load() -> ctypes.CDLL:
    folder = tempfile.mkdtemp(prefix="fastc-")
    src, path = os.path.join(folder, "fastc.c"), os.path.join(folder, "libfastc.so")
    with open(src, "w") as f:
        f.write(SOURCE)
    subprocess.run(["gcc", "-O1", "-shared", "-fPIC", "-o", path, src], check=True)
    lib = ctypes.CDLL(path)
    lib.fastc_open.argtypes = [ctypes.c_char_p]
    lib.fastc_open.restype = ctypes.c_void_p
    lib.fastc_count.argtypes = [ctypes.c_void_p]
    lib.fastc_count.restype = ctypes.c_long
    lib.fastc_read.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_long]
    lib.fastc_read.restype = ctypes.c_long
    lib.fastc_close.argtypes = [ctypes.c_void_p]
    lib.fastc_set_output.argtypes = [ctypes.c_void_p, ctypes.c_long]
    lib.fastc_decode.argtypes = [ctypes.c_void_p, ctypes.c_long]
    lib.fastc_decode.restype = ctypes.c_long
    lib.fastc_copy_labels.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_long]
    # fastc_scale was added later; its argtypes were never declared
    return lib
