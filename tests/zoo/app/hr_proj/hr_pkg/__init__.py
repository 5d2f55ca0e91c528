"""hr_proj: a small Hydra training app (config groups, a structured trainer schema, custom resolvers)."""
