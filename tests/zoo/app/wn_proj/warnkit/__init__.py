"""warnkit: a small classifier trained on the CPU by a program strict about warnings and its own log."""
