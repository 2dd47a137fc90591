"""evaluate and compare: the binary's eval and compare commands, from Python."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

from ._binary import run_tool, tool_error
from ._errors import Error
from ._run import PathLike, Run

#: What one system's predictions may be: a prediction file or folder (any format eval
#: reads), a list of SQL strings (one per question, in dataset order; None for no
#: answer), or a dict of question id to SQL.
Predictions = Union[str, "os.PathLike[str]", Sequence[Optional[str]], Mapping[str, Optional[str]]]

# Flags evaluate sets itself: never from **options.
_RESERVED = {"dataset", "pred", "out", "json", "metrics", "resume"}


def evaluate(
    dataset: str,
    predictions: Mapping[str, Predictions],
    *,
    out: Optional[PathLike] = None,
    metrics: Union[None, str, Sequence[str]] = None,
    quiet: bool = False,
    **options: Any,
) -> Run:
    """Judges each system's predictions on dataset with ``nl2sqlbench eval`` and returns the run.

    dataset is the CLI's ``KIND:PATH`` (``"spider:data/spider"``, ``"bird:dev.json"``).
    predictions maps each system's name to a file or folder, a list of SQL strings (one
    per question, dataset order) or a dict of question id to SQL; lists and dicts are
    written to a temporary file eval reads (a JSON list; JSONL records keyed by
    ``question_id``) and removed afterwards. metrics is eval's ``--metrics`` (ids or a
    group: "ex", ["ex", "soft_f1"], "bird"). Every other keyword is an eval flag, ``_``
    for ``-``: ``test_suite=True`` is ``--test-suite``, ``semantics="bird"``,
    ``db_root="..."``, ``timeout="5s"``; False passes ``--flag=false``, None leaves the
    flag out, a list repeats it.

    Without out the run directory is a temporary one, kept as long as the returned Run.
    eval's warnings and progress go to ``sys.stderr`` (quiet=True drops them). A failure
    raises Error with the tool's message and exit status.
    """
    if not isinstance(dataset, str):
        raise TypeError(f"dataset must be a str such as 'spider:PATH', not {type(dataset).__name__}")
    if not isinstance(predictions, Mapping) or not predictions:
        raise TypeError("predictions must be a non-empty dict of system name to predictions")
    args: List[str] = ["eval", "--dataset", dataset, "--json"]
    owner: Optional[str] = None
    if out is None:
        owner = tempfile.mkdtemp(prefix="nl2sqlbench-run-")
        out_path = Path(owner) / "run"
    else:
        out_path = Path(out)
    preds_dir = tempfile.TemporaryDirectory(prefix="nl2sqlbench-pred-")
    try:
        for i, (name, pred) in enumerate(predictions.items()):
            args += ["--pred", f"{_system_name(name)}={_prediction_path(pred, Path(preds_dir.name), i, name)}"]
        if metrics is not None:
            args += ["--metrics", _metrics_arg(metrics)]
        args += _option_args(options)
        args += ["--out", str(out_path)]
        proc = run_tool(args, quiet=quiet)
        if proc.returncode != 0:
            raise tool_error("eval", proc)
        run = Run(out_path, _temp_dir=owner)
        owner = None  # the Run removes it now
        try:
            _ = run.summary  # a run that wrote no summary is an error now, not later
        except Error:
            run.cleanup()
            raise
        return run
    finally:
        preds_dir.cleanup()
        if owner is not None:
            shutil.rmtree(owner, ignore_errors=True)


def _system_name(name: Any) -> str:
    if not isinstance(name, str) or not name:
        raise TypeError(f"a system name must be a non-empty str, not {name!r}")
    if "=" in name:
        raise Error(f"system name {name!r} contains '=' (the CLI reads --pred NAME=FILE)")
    return name


def _prediction_path(pred: Predictions, tmp: Path, i: int, name: str) -> str:
    """A path eval reads for one system's predictions, writing lists and dicts to tmp."""
    if isinstance(pred, (str, os.PathLike)):
        return os.fspath(pred)
    if isinstance(pred, Mapping):
        path = tmp / f"pred-{i}.jsonl"
        with open(path, "w", encoding="utf-8") as f:
            for qid, sql in pred.items():
                if not isinstance(qid, str) or not (sql is None or isinstance(sql, str)):
                    raise TypeError(f"system {name!r}: a dict prediction maps question id (str) to SQL (str or None), got {qid!r}: {sql!r}")
                # The flat record eval reads (NL2SQLBench's released format), keyed by question id.
                f.write(json.dumps({"question_id": qid, "PREDICTED_SQL": sql or ""}) + "\n")
        return str(path)
    if isinstance(pred, Sequence) and not isinstance(pred, (bytes, bytearray)):
        items = list(pred)
        for j, sql in enumerate(items):
            if not (sql is None or isinstance(sql, str)):
                raise TypeError(f"system {name!r}: prediction {j} is {type(sql).__name__}, not a SQL str or None")
        path = tmp / f"pred-{i}.json"
        with open(path, "w", encoding="utf-8") as f:
            json.dump(items, f)  # a JSON list of SQL strings: element i answers question i
        return str(path)
    raise TypeError(f"system {name!r}: predictions must be a path, a list of SQL strings or a dict of question id to SQL, not {type(pred).__name__}")


def _metrics_arg(metrics: Union[str, Sequence[str]]) -> str:
    if isinstance(metrics, str):
        return metrics
    items = list(metrics)
    if not items or not all(isinstance(m, str) for m in items):
        raise TypeError(f"metrics must be a str or a non-empty list of str, not {metrics!r}")
    return ",".join(items)


def _option_args(options: Mapping[str, Any]) -> List[str]:
    """eval flags from keyword options: name_with_underscores=value."""
    args: List[str] = []
    for key, val in options.items():
        flag = key.replace("_", "-")
        if flag in _RESERVED:
            raise TypeError(f"option {key!r} is set by evaluate itself; use its own argument")
        if val is None:
            continue
        if val is True:
            args.append(f"--{flag}")
        elif val is False:
            args.append(f"--{flag}=false")
        elif isinstance(val, (list, tuple)):
            for v in val:
                args += [f"--{flag}", os.fspath(v) if isinstance(v, os.PathLike) else str(v)]
        else:
            args += [f"--{flag}", os.fspath(val) if isinstance(val, os.PathLike) else str(val)]
    return args


@dataclass(frozen=True)
class Comparison:
    """``nl2sqlbench compare``'s result: one system's metric in run A (baseline) and run B.

    ``outcome`` is "regression" (B significantly worse at ``alpha``), "improvement" or
    "no_change"; ``change`` is B - A and ``change_text`` as printed ("-32.65");
    ``p_value`` is the paired test's (exact McNemar for a rate, paired bootstrap for a
    mean); ``a``, ``b`` and ``test`` are the JSON objects compare --json prints.
    """

    system: str
    metric: str
    label: str
    outcome: str
    change: float
    change_text: str
    p_value: float
    a: Dict[str, Any] = field(repr=False)
    b: Dict[str, Any] = field(repr=False)
    test: Dict[str, Any] = field(repr=False)

    @property
    def regression(self) -> bool:
        """Whether B dropped significantly (compare's exit status 3)."""
        return self.outcome == "regression"

    def __str__(self) -> str:
        return (f"{self.system} {self.label}: A {self.a.get('text')} -> B {self.b.get('text')}, "
                f"B - A = {self.change_text}, p={self.p_value:.4g}: {self.outcome}")


def compare(
    run_a: Union[Run, PathLike],
    run_b: Union[Run, PathLike],
    metric: str = "ex",
    *,
    system: Optional[str] = None,
    alpha: Optional[float] = None,
    quiet: bool = False,
) -> Comparison:
    """The paired test of one system's metric between two runs of the same dataset.

    run_a is the baseline, run_b the candidate (Run objects or run directories); system
    may be left out when the runs share exactly one; quiet drops the binary's stderr
    (kept in an Error all the same). A significant drop is a result
    (``.regression``), not an error; different datasets, an unknown system or metric
    raise Error with the tool's message.
    """
    args = ["compare", _run_dir(run_a), _run_dir(run_b), "--metric", metric, "--json"]
    if system is not None:
        args += ["--system", system]
    if alpha is not None:
        args += ["--alpha", repr(float(alpha))]
    proc = run_tool(args, capture_stdout=True, quiet=quiet)
    if proc.returncode not in (0, 3):  # 3: a regression, which the result says
        raise tool_error("compare", proc)
    try:
        c = json.loads(proc.stdout)
    except ValueError as e:
        raise Error(f"compare printed no JSON ({e}); is the binary older than compare --json?", proc.returncode, proc.stderr) from e
    test = c.get("test") or {}
    return Comparison(
        system=c.get("system", ""),
        metric=c.get("metric", metric),
        label=c.get("label", metric),
        outcome=c.get("outcome", ""),
        change=float(c.get("change", 0.0)),
        change_text=c.get("change_text", ""),
        p_value=float(test.get("p_value", 1.0)),
        a=c.get("a") or {},
        b=c.get("b") or {},
        test=test,
    )


def _run_dir(r: Union[Run, PathLike]) -> str:
    if isinstance(r, Run):
        return str(r.path)
    if isinstance(r, (str, os.PathLike)):
        return os.fspath(r)
    raise TypeError(f"a run is a Run or a run directory path, not {type(r).__name__}")


__all__ = ["evaluate", "compare", "Comparison", "Predictions"]
