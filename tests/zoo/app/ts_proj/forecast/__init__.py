"""A small hourly sales forecaster: CSV in, pandas features, sliding windows, an MLP."""
