"""Contrastive pretraining written with torch alone: two augmented views, NT-Xent, a memory bank, a key encoder."""
