"""key=value arguments over defaults and a named preset (`preset=NAME`)."""

DEFAULTS = {
    "preset": "base",
    "epochs": 1,
    "batch_size": 8,
    "accum": 2,
    "lr": 0.05,
    "num_workers": 0,
    "vocab_lines": 0,
    "max_len": 24,
    "block_size": 32,
    "loss": "ce",
    "aux_weight": 0.1,
}

PRESETS = {
    "base": {},
    # the vocabulary built from the first lines only, to start faster; the loader has 2 workers
    "f_vocab_unknown_worker": {"vocab_lines": 3, "num_workers": 2},
    # a CTC head over the encoder's downsampled frames
    "f_ctc_input_lengths": {"loss": "ctc"},
    # multi-label tags with BCELoss on the head's raw outputs
    "f_bce_on_logits": {"loss": "bce"},
    # the auxiliary loss switched off by its weight
    "f_optim_grad_none": {"aux_weight": 0.0},
    # longer sequences than the model's causal mask was built for
    "f_causal_mask_block": {"max_len": 48},
}


def _value(text: str):
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return {"true": True, "false": False}.get(text, text)


def parse(argv: list[str]) -> dict:
    given = dict(arg.split("=", 1) for arg in argv)
    cfg = dict(DEFAULTS)
    cfg.update(PRESETS[given.get("preset", "base")])
    cfg.update({k: _value(v) for k, v in given.items()})
    return cfg
