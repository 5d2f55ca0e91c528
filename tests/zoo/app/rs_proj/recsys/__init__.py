"""A small recommender: a feature-id vocabulary, a click log, an EmbeddingBag model, training and Hogwild."""
