"""hy_proj's package: schema, data, model, loop, evaluation."""
