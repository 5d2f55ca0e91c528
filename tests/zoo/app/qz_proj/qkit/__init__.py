"""qkit: calibrate, quantize, prune and export a small classifier on the CPU."""
