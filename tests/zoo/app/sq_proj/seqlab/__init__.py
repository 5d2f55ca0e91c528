"""seqlab: a word vocabulary, a synthetic corpus, RNN and attention models, greedy decoding and a loop."""
