"""A token id beyond a Hugging Face model's vocabulary, on CUDA: the embedding kernel's device-side assert.

A tokenizer with added tokens and a model whose table was never resized (transformers' issues, forums).
CUDA reports the assert at the host's next wait, not at the embedding that launched it.
"""

import torch
from transformers import BertConfig, BertModel

from zoo.data import quiet_torch


def encode(model, ids):
    return model(input_ids=ids).last_hidden_state


def main() -> None:
    quiet_torch()
    config = BertConfig(
        vocab_size=100,
        hidden_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=128,
        max_position_embeddings=32,
    )
    model = BertModel(config).cuda().eval()
    ids = torch.tensor([[1, 5, 150, 7]], device="cuda")  # 150: a token the tokenizer added, the model lacks
    with torch.no_grad():
        hidden = encode(model, ids)
    print(float(hidden.mean()))
