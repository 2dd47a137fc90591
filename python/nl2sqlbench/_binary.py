"""Finding and running the nl2sqlbench binary the wheel carries."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import List, Optional, Sequence, TextIO

from ._errors import Error

#: Environment variable naming another binary (a source build, a release tarball's).
BINARY_ENV = "NL2SQLBENCH_BINARY"


def binary_path() -> str:
    """The binary to run: ``$NL2SQLBENCH_BINARY`` when set, else the wheel's bundled one.

    PATH is never searched: the ``nl2sqlbench`` found there may be this package's own
    console script, which would call itself forever.
    """
    env = os.environ.get(BINARY_ENV)
    if env:
        if not (os.path.isfile(env) and os.access(env, os.X_OK)):
            raise Error(f"{BINARY_ENV}={env} is not an executable file")
        return env
    bundled = Path(__file__).resolve().parent / "bin" / "nl2sqlbench"
    if bundled.is_file() and os.access(bundled, os.X_OK):
        return str(bundled)
    raise Error(
        f"no nl2sqlbench binary in this installation ({bundled} is missing): install a platform "
        f"wheel (linux x86_64 or aarch64), or set {BINARY_ENV} to a binary built from source"
    )


def _pump(src: TextIO, sink: Optional[TextIO], kept: List[str]) -> None:
    """Copies the binary's stderr line by line to sink (a notebook shows sys.stderr, not
    file descriptor 2) and keeps it for an Error's message."""
    for line in iter(src.readline, ""):
        kept.append(line)
        if sink is not None:
            sink.write(line)
            sink.flush()
    src.close()


def run_tool(args: Sequence[str], *, capture_stdout: bool = False, quiet: bool = False) -> subprocess.CompletedProcess:
    """Runs the binary with args. Its stderr (warnings, progress) goes to ``sys.stderr``
    as it comes, unless quiet; stdout is captured when asked, else discarded. Returns the
    completed process (returncode, stdout, and stderr as text) whatever its exit status."""
    cmd = [binary_path(), *args]
    try:
        proc = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE if capture_stdout else subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
        )
    except OSError as e:
        raise Error(f"run {cmd[0]}: {e}") from e
    kept: List[str] = []
    pump = threading.Thread(target=_pump, args=(proc.stderr, None if quiet else sys.stderr, kept), daemon=True)
    pump.start()
    try:
        out = proc.stdout.read() if proc.stdout is not None else ""
        code = proc.wait()
    except BaseException:
        # KeyboardInterrupt in a notebook: stop the binary as Ctrl-C would (SIGINT: it stops
        # cleanly, its complete records kept), and wait for it.
        proc.send_signal(signal.SIGINT)
        proc.wait()
        raise
    finally:
        pump.join()
        if proc.stdout is not None:
            proc.stdout.close()
    return subprocess.CompletedProcess(cmd, code, out, "".join(kept))


def tool_error(what: str, proc: subprocess.CompletedProcess) -> Error:
    """The Error for a failed run of the binary: its own message (the "nl2sqlbench: ..."
    lines it wrote to stderr), else its whole stderr, with its exit status."""
    lines = proc.stderr.splitlines()
    msgs = [ln[len("nl2sqlbench: "):] for ln in lines if ln.startswith("nl2sqlbench: ")]
    msg = "; ".join(msgs) if msgs else (proc.stderr.strip() or "no message")
    return Error(f"{what}: {msg}", proc.returncode, proc.stderr)


def exec_binary(argv: Sequence[str]) -> None:
    """Replaces this process by the binary with argv (the console script, python -m)."""
    try:
        path = binary_path()
    except Error as e:
        sys.stderr.write(f"nl2sqlbench: {e}\n")
        sys.exit(1)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(path, ["nl2sqlbench", *argv])
