"""State, checkpoints and the loop of a trainer that resumes from what it wrote itself."""
