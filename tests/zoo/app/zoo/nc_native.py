"""The eighty-second held-out set's C helper (nc_ modes): the program's own C code, built with gcc at run time
into a shared library and loaded with ctypes, as a training program does for a fast decoder."""

import ctypes
import hashlib
import os
import subprocess
import tempfile

SOURCE = r"""
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <unistd.h>

typedef int (*record_cb)(long i, int label);

void nc_release(void *p) { free(p); }

void nc_normalize(float *x, long n, float mean, float std) {
    for (long i = 0; i < n; i++) x[i] = (x[i] - mean) / std;
}

typedef struct { const int *labels; long lo, hi; record_cb cb; long ok; } job_t;

static void *scan_job(void *arg) {
    job_t *j = (job_t *)arg;
    for (long i = j->lo; i < j->hi; i++) { j->ok += j->cb(i, j->labels[i]); usleep(2000); }
    return NULL;
}

long nc_scan_threads(const int *labels, long n, int nthreads, record_cb cb) {
    pthread_t th[8]; job_t jobs[8]; long ok = 0;
    for (int t = 0; t < nthreads; t++) {
        jobs[t].labels = labels; jobs[t].lo = n * t / nthreads; jobs[t].hi = n * (t + 1) / nthreads;
        jobs[t].cb = cb; jobs[t].ok = 0;
        pthread_create(&th[t], NULL, scan_job, &jobs[t]);
    }
    for (int t = 0; t < nthreads; t++) { pthread_join(th[t], NULL); ok += jobs[t].ok; }
    return ok;
}

static pthread_t g_prefetch;
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_cv = PTHREAD_COND_INITIALIZER;
static int g_pending = 0, g_stop = 0;
static long g_done = 0;

static void *prefetch_loop(void *arg) {
    (void)arg;
    pthread_mutex_lock(&g_mu);
    while (!g_stop) {
        while (g_pending == 0) pthread_cond_wait(&g_cv, &g_mu);
        g_pending--; g_done++;
    }
    pthread_mutex_unlock(&g_mu);
    return NULL;
}

void nc_prefetch_start(void) { pthread_create(&g_prefetch, NULL, prefetch_loop, NULL); }

void nc_prefetch_push(void) {
    pthread_mutex_lock(&g_mu); g_pending++; pthread_cond_signal(&g_cv); pthread_mutex_unlock(&g_mu);
}

long nc_prefetch_done(void) { pthread_mutex_lock(&g_mu); long d = g_done; pthread_mutex_unlock(&g_mu); return d; }

void nc_prefetch_stop(void) {
    g_stop = 1;
    pthread_join(g_prefetch, NULL);
}
"""


def build() -> str:
    """Compile SOURCE once per content into a temporary folder; the path of the shared library."""
    digest = hashlib.sha1(SOURCE.encode()).hexdigest()[:12]
    folder = os.path.join(tempfile.gettempdir(), f"nc-native-{digest}-{os.getpid()}")
    os.makedirs(folder, exist_ok=True)
    src, lib = os.path.join(folder, "nc.c"), os.path.join(folder, "libnc.so")
    with open(src, "w") as f:
        f.write(SOURCE)
    subprocess.run(["gcc", "-O1", "-shared", "-fPIC", "-pthread", "-o", lib, src], check=True)
    return lib


def load(kind=ctypes.CDLL) -> ctypes.CDLL:
    lib = kind(build())
    lib.nc_release.argtypes = [ctypes.c_void_p]
    lib.nc_normalize.argtypes = [ctypes.c_void_p, ctypes.c_long, ctypes.c_float, ctypes.c_float]
    lib.nc_scan_threads.restype = ctypes.c_long
    lib.nc_prefetch_done.restype = ctypes.c_long
    return lib
