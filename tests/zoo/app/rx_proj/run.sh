#!/bin/bash
# The queue's job script: the per-job limits of the test partition, then the trainer (as sbatch and
# qsub scripts do). Run from this folder: bash run.sh --case=NAME
ulimit -f 4096 # no file over 4 MiB on the scratch volume (1 KiB blocks)
ulimit -S -t 6 # 6 s of CPU on the test partition (soft: SIGXCPU)
exec python train.py "$@"
