"""The `tablesight` command: one click group, one sub-command module per area in `companion_app.commands`."""

from __future__ import annotations

import click

from companion_app.commands.cubist import cubist
from companion_app.commands.cubist_photo import read_command as cubist_read_command
from companion_app.commands.detect import detect
from companion_app.commands.mat import mat
from companion_app.commands.riverdragons import riverdragons
from companion_app.commands.runbuster import runbuster
from companion_app.commands.runbuster_photo import read_command
from companion_app.commands.sagrada import sagrada
from companion_app.commands.serve import serve


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="tablesight")
def main() -> None:
    """TableSight: read board-game dice from photos, check the rules, keep the score."""


main.add_command(sagrada)
runbuster.add_command(read_command)
main.add_command(runbuster)
main.add_command(serve)
main.add_command(detect)
main.add_command(mat)
cubist.add_command(cubist_read_command)
main.add_command(cubist)
main.add_command(riverdragons)
