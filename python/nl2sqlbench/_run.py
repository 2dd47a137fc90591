"""A run directory, read from the files the binary wrote (summary.json, records.jsonl)."""

from __future__ import annotations

import json
import os
import shutil
import stat
import weakref
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Union

from ._binary import run_tool, tool_error
from ._errors import Error

PathLike = Union[str, "os.PathLike[str]"]


@dataclass(frozen=True)
class Score:
    """One metric of one system, as summary.json holds it (never recomputed here).

    ``value`` is a fraction for rates (0.8323 for EX 83.23 %) or the metric's own unit,
    ``None`` when there is none; ``text`` is the value as every nl2sqlbench output prints
    it ("83.23", "n/a: covers 1 of 52"); ``interval`` its 95 % confidence interval as
    printed ("[80.81, 85.40]", "" when none), ``ci_low``/``ci_high`` its bounds.
    """

    system: str
    metric: str
    label: str
    value: Optional[float]
    text: str
    interval: str
    ci_low: Optional[float]
    ci_high: Optional[float]
    n: int
    coverage: float
    applicable: bool

    def __repr__(self) -> str:
        iv = f" {self.interval}" if self.interval else ""
        return f"Score({self.system} {self.label}: {self.text}{iv})"


class Scores(List[Score]):
    """The list ``Run.scores()`` returns: a plain list of Score, printed as a table."""

    def __repr__(self) -> str:
        if not self:
            return "Scores([])"
        rows = [("system", "metric", "value", "95% interval")]
        rows += [(s.system, s.label, s.text, s.interval) for s in self]
        widths = [max(len(r[i]) for r in rows) for i in range(4)]
        return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)

    __str__ = __repr__

    def get(self, system: str, metric: str) -> Optional[Score]:
        """The score of system on metric (its registry id, such as "ex"), or None."""
        for s in self:
            if s.system == system and s.metric == metric:
                return s
        return None


class Run:
    """A run directory: ``path``, ``summary`` (the parsed summary.json), ``scores()``,
    ``records(system)`` and ``to_pandas()``.

    A Run made by ``evaluate`` without ``out`` owns a temporary directory, removed when
    the Run is garbage-collected or ``cleanup()`` is called; one from ``open_run`` or with
    ``out`` never deletes anything.
    """

    def __init__(self, path: PathLike, *, _temp_dir: Optional[str] = None) -> None:
        self.path = Path(path)
        self._summary: Optional[Dict[str, Any]] = None
        # evaluate's temporary directory (holding path) goes when the Run does.
        self._cleanup = weakref.finalize(self, shutil.rmtree, _temp_dir, ignore_errors=True) if _temp_dir else None

    def __repr__(self) -> str:
        return f"Run({str(self.path)!r})"

    def cleanup(self) -> None:
        """Removes the temporary run directory now (only one evaluate made without out)."""
        if self._cleanup is not None:
            self._cleanup()

    @property
    def summary(self) -> Dict[str, Any]:
        """The run's summary.json, parsed (read once)."""
        if self._summary is None:
            self._summary = _read_json(self.path / "summary.json")
        return self._summary

    @property
    def systems(self) -> List[str]:
        """The names of the run's systems, in the run's order."""
        return [s.get("system", "") for s in self.summary.get("systems") or []]

    def scores(self) -> Scores:
        """One Score per system and metric, in summary.json's order (its ``metrics`` section)."""
        section = self.summary.get("metrics") or {}
        labels = {d.get("id"): d.get("label", d.get("id")) for d in section.get("definitions") or []}
        out = Scores()
        for sys_ in section.get("systems") or []:
            for v in sys_.get("values") or []:
                mid = v.get("id", "")
                out.append(
                    Score(
                        system=sys_.get("system", ""),
                        metric=mid,
                        label=labels.get(mid, mid),
                        value=v.get("value"),
                        text=v.get("text", ""),
                        interval=v.get("ci_text", ""),
                        ci_low=v.get("ci_low"),
                        ci_high=v.get("ci_high"),
                        n=int(v.get("n", 0)),
                        coverage=float(v.get("coverage", 0)),
                        applicable=bool(v.get("applicable", False)),
                    )
                )
        return out

    def records_path(self, system: str) -> Path:
        """The records.jsonl of system (its directory as summary.json names it)."""
        for s in self.summary.get("systems") or []:
            if s.get("system") == system:
                d = s.get("dir") or system
                if os.path.isabs(d) or ".." in Path(d).parts:
                    raise Error(f"{self.path / 'summary.json'}: system {system!r} has directory {d!r} outside the run")
                return self.path / d / "records.jsonl"
        raise Error(f"{self.path}: no system {system!r} in this run (systems: {', '.join(self.systems) or 'none'})")

    def records(self, system: str) -> Iterator[Dict[str, Any]]:
        """The judged records of system, one dict per dataset question in dataset order,
        exactly as records.jsonl holds them (docs/run-directory.md lists every field)."""
        path = self.records_path(system)
        try:
            f = _open_in_run(self.path, path, MAX_RECORDS)
        except OSError as e:
            raise Error(f"open records: {e}") from e
        with f:
            for lineno, line in enumerate(iter(lambda: f.readline(MAX_RECORD_LINE + 1), ""), 1):
                if len(line) > MAX_RECORD_LINE:
                    raise Error(f"{path}:{lineno}: a line over {MAX_RECORD_LINE} characters; not read")
                if not line.strip():
                    continue
                try:
                    rec = json.loads(line)
                except ValueError as e:
                    raise Error(f"{path}:{lineno}: not a JSON record: {e}") from e
                if not isinstance(rec, dict):
                    raise Error(f"{path}:{lineno}: not a JSON object")
                yield rec

    def to_pandas(self) -> Any:
        """The scores as a pandas DataFrame, one row per system and metric (needs pandas)."""
        try:
            import pandas  # type: ignore[import-not-found]
        except ImportError as e:
            raise ImportError("Run.to_pandas needs pandas, which is not installed: pip install pandas") from e
        return pandas.DataFrame([asdict(s) for s in self.scores()])


def open_run(path: PathLike, *, check: bool = True) -> Run:
    """Opens an existing run directory (one with a summary.json, as eval writes).

    A run directory may come from someone else, so by default the binary first checks
    every file against the sha256 the run recorded when it finished (``nl2sqlbench verify
    --integrity-only``): an edited score or a flipped verdict raises Error naming the
    file rather than being read as if the run had produced it. ``check=False`` reads the
    files as they are (a run written before hashes were recorded is read either way, with
    the binary's warning on ``sys.stderr``).
    """
    p = Path(path)
    if not p.is_dir():
        raise Error(f"{p}: not a run directory (no such directory)")
    run = Run(p)
    _ = run.summary  # fail now, naming the file, rather than at first use
    if check:
        proc = run_tool(["verify", "--integrity-only", str(p)], capture_stdout=True)
        if proc.returncode != 0:
            raise tool_error(f"open {p}", proc)
    return run


# The binary's caps (internal/rundir): a run directory may come from someone else.
MAX_SUMMARY = 256 << 20
MAX_RECORDS = 1 << 30
MAX_RECORD_LINE = 64 << 20


def _open_in_run(run_dir: Path, path: Path, cap: int) -> Any:
    """Opens path for reading as text only if it resolves inside run_dir (no symlink out)
    and is a regular file of at most cap bytes: a FIFO would block the read forever and
    a sparse 20 GB file would be read whole. Checked on the open file, so nothing can be
    swapped in between."""
    root = os.path.realpath(run_dir)
    real = os.path.realpath(path)
    if os.path.commonpath([root, real]) != root:
        raise Error(f"{path}: leaves the run directory (resolves to {real}); not read")
    fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise Error(f"{path}: not a regular file; not read")
        if st.st_size > cap:
            raise Error(f"{path}: {st.st_size} bytes, over the cap of {cap}; not read")
        return os.fdopen(fd, encoding="utf-8")
    except BaseException:
        os.close(fd)
        raise


def _read_json(path: Path) -> Dict[str, Any]:
    try:
        with _open_in_run(path.parent, path, MAX_SUMMARY) as f:
            data = json.load(f)
    except FileNotFoundError as e:
        raise Error(f"{path}: no such file (a run directory holds summary.json once eval finished)") from e
    except OSError as e:
        raise Error(f"read {path}: {e}") from e
    except ValueError as e:
        raise Error(f"{path}: not valid JSON: {e}") from e
    if not isinstance(data, dict):
        raise Error(f"{path}: not a JSON object")
    return data
