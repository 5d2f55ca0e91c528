"""layoutkit: page-layout classification, the project's package (registry, models, heads, losses, train)."""
