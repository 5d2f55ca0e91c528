"""x_train: a small classifier trained by Lightning, configured by Hydra's structured configs
(x_train.schema, registered in its ConfigStore) and conf/train.yaml, run as `python -m x_train`."""
