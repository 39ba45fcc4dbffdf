import click


@click.group()
def main() -> None:
    """maumau: the Mau-Mau club service."""
