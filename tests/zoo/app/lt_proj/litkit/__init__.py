"""litkit: a LightningModule, a LightningDataModule and callbacks for a small tabular classifier."""
