"""Fine-tuning recipes for a small pretrained image model: freezing, hand-written LoRA adapters, per-layer
learning rates, gradient checkpointing and feature extraction in DataLoader workers."""
