"""A training command whose booleans are click flags: `--pin/--no-pin` and `--verbose` (is_flag). It prints
what it parsed."""

import click


@click.command()
@click.option("--pin/--no-pin", default=False)
@click.option("--verbose", is_flag=True)
@click.option("--epochs", type=int, default=1)
def main(pin: bool, verbose: bool, epochs: int) -> None:
    print(f"parsed pin={pin} verbose={verbose} epochs={epochs}")


if __name__ == "__main__":
    main()  # `--pin=true` is click's "Option '--pin' does not take a value.", exit status 2
