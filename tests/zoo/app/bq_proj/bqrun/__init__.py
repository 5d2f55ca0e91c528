"""bq_proj's package: a small training program run inside the limits of the container it is deployed in."""
