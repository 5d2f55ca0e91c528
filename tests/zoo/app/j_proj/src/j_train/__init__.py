"""j_train: a small token classifier with resumable training, bf16 autocast on CPU, mixup and history logging."""
