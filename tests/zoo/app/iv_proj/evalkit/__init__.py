"""Evaluation, prediction and serving around a small trained classifier."""
