"""prettytrain: a small training project that prints its failures its own way (a coloured, shortened
excepthook, a log formatter that prefixes every line, a progress bar on stderr)."""
