"""A small text classifier: hand-written tokenizer, a transformer-ish encoder, gradient accumulation and a
hand-written optimizer. Run as `python -m f_pkg preset=NAME [key=value ...]`."""
