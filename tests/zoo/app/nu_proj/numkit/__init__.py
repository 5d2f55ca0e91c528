"""numkit: losses, linear algebra and a training loop for tests/zoo/HELDOUT76.md's nu_proj."""
