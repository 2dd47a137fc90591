"""The one exception the package raises for a failure of the tool."""

from __future__ import annotations

from typing import Optional


class Error(Exception):
    """A failure of nl2sqlbench: the tool's message and its exit code.

    ``exit_code`` is the binary's exit status (1 an error, 2 a usage error, 130 an
    interruption; see the README's ``eval`` contract), or ``None`` when the failure was
    found before or after running it (a missing binary, an unreadable run directory).
    ``stderr`` is everything the binary wrote to stderr, for the whole story.
    """

    def __init__(self, message: str, exit_code: Optional[int] = None, stderr: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code
        self.stderr = stderr

    def __str__(self) -> str:
        if self.exit_code is None:
            return self.message
        return f"{self.message} (exit status {self.exit_code})"
