"""Parameter groups, learning-rate schedules and a training loop for a small regression model."""
