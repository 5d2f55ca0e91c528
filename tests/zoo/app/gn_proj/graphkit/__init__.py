"""graphkit: graph learning written by hand (no PyG): edge lists, sparse adjacency, message passing."""
