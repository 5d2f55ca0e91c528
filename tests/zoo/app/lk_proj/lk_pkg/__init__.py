"""A small Lightning project: records, a classifier, callbacks, and the cases it is run with."""
