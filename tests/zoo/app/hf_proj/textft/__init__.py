"""A small text fine-tuning stack written after Hugging Face's examples, in plain Python and torch."""
