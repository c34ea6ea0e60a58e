"""``python -m hashi_asp``: the command line, as the ``hashi-asp`` script runs it."""

from .cli import main

main(prog_name="hashi-asp")
