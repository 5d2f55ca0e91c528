"""sigkit: the trainer's own signal handling, checkpointing and loop."""
