"""sharekit: a replay buffer, actors and Hogwild trainers sharing tensors through torch.multiprocessing."""
