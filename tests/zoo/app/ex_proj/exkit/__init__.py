"""exkit: a small trainer with the machinery around its loop (hooks, handlers, watchdogs, helper processes)."""
