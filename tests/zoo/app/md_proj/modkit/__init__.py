"""modkit: residual MLP blocks, tied and lazy heads, and a builder (crashmatrix's fifty-eighth held-out set)."""
