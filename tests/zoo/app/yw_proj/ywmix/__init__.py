"""A small tabular-regression trainer: mixed precision, compilation, export and clipping on the CPU."""
