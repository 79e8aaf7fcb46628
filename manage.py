#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import gc
import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "club.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
    # The command is done (its database connections closed) and the process ends: Python's
    # exit would still run several full collections over every object Django and the command
    # loaded, looking for cyclic garbage that no one waits for. Frozen, they are skipped; the
    # memory goes back with the process (docs/performance.md, the rayter import).
    gc.freeze()


if __name__ == "__main__":
    main()
