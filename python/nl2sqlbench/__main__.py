"""python -m nl2sqlbench ARGS...: the bundled binary, exactly as the nl2sqlbench command."""

import sys

from ._binary import exec_binary


def main() -> None:
    """Runs the bundled binary with this process's arguments (it replaces the process)."""
    exec_binary(sys.argv[1:])


if __name__ == "__main__":
    main()
