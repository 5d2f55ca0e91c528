"""Errors the command line turns into exit statuses."""


class BadInput(Exception):
    """Bad input of any kind: the CLI prints the message (file and key) and exits 2."""
