"""A small CPU training program that writes about itself while it trains: a text log, metrics, sample images."""
