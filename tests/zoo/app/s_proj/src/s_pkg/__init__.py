"""The eighth held-out set's training package (src layout): schema, data, model and callbacks."""
