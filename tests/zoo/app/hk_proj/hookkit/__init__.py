"""hookkit: a tiny tagger trained on synthetic data, with activation probes on its layers."""
