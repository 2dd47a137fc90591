"""Tests of the nl2sqlbench Python package against the real binary.

Run from an installed wheel (scripts/python_check.sh), or from the source tree with
NL2SQLBENCH_BINARY naming a built binary and python/ on PYTHONPATH. The demo benchmark,
built by the binary itself, needs no data; the Spider tests need ../shared beside the
repository (or NL2SQLBENCH_SHARED) and skip, saying so, without it.
"""

from __future__ import annotations

import gc
import glob
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stderr
from pathlib import Path
from typing import Dict, List, Optional

import nl2sqlbench
from nl2sqlbench._binary import binary_path

REPO = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("NL2SQLBENCH_SHARED", REPO.parent / "shared"))
SPIDER = SHARED / "data" / "spider"
DAIL = SPIDER / "predictions" / "DAIL.txt"


def verdicts(run: nl2sqlbench.Run, system: str) -> List[str]:
    return [r["verdict"] for r in run.records(system)]


class _Fixture:
    """The embedded demo benchmark, materialized once per test process by `nl2sqlbench
    demo` into a temporary directory, and the runs several tests share."""

    def __init__(self) -> None:
        self.tmp = tempfile.TemporaryDirectory(prefix="nl2sqlbench-pytest-")
        base = Path(self.tmp.name)
        self.demo_run = base / "demo"
        env = dict(os.environ, NL2SQLBENCH_CACHE_DIR="off")
        p = subprocess.run([binary_path(), "demo", "--cache", str(base / "cache"), "--out", str(self.demo_run), "--json"],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env)
        if p.returncode != 0:
            raise RuntimeError(f"nl2sqlbench demo: exit {p.returncode}: {p.stderr}")
        (self.questions,) = glob.glob(str(base / "cache" / "*" / "questions.jsonl"))
        root = Path(self.questions).parent
        self.db_root = str(root / "databases")
        self.systems = {Path(p).stem: p for p in sorted(glob.glob(str(root / "systems" / "*.jsonl")))}
        assert {"baseline", "reviser"} <= set(self.systems), self.systems
        self.runs: Dict[str, nl2sqlbench.Run] = {}

    def evaluate(self, preds, **kw) -> nl2sqlbench.Run:
        # The demo's limits (as the Go tests use them): its slow queries stop at 1 s.
        kw.setdefault("db_root", self.db_root)
        kw.setdefault("timeout", "1s")
        kw.setdefault("max_rows", 100000)
        kw.setdefault("quiet", True)
        return nl2sqlbench.evaluate("jsonl:" + self.questions, preds, **kw)

    def run(self, name: str) -> nl2sqlbench.Run:
        """Shared runs: "both" (baseline and reviser), "good" and "bad" (reviser and
        baseline as one system "s", for compare)."""
        if name not in self.runs:
            preds = {
                "both": {"baseline": self.systems["baseline"], "reviser": self.systems["reviser"]},
                "good": {"s": self.systems["reviser"]},
                "bad": {"s": self.systems["baseline"]},
            }[name]
            self.runs[name] = self.evaluate(preds, out=Path(self.tmp.name) / ("shared-" + name))
        return self.runs[name]


_fixture: Optional[_Fixture] = None


def setUpModule() -> None:
    global _fixture
    _fixture = _Fixture()


def tearDownModule() -> None:
    if _fixture is not None:
        _fixture.tmp.cleanup()


class Demo(unittest.TestCase):
    """Tests on the demo benchmark (the module's fixture)."""

    def setUp(self) -> None:
        assert _fixture is not None
        self.fx = _fixture
        self.questions, self.db_root, self.systems, self.demo_run = (
            _fixture.questions, _fixture.db_root, _fixture.systems, _fixture.demo_run)

    def evaluate(self, preds, **kw) -> nl2sqlbench.Run:
        return self.fx.evaluate(preds, **kw)

    def out_dir(self, name: str) -> Path:
        d = Path(self.fx.tmp.name) / self.id().rsplit(".", 1)[-1]
        d.mkdir(exist_ok=True)
        return d / name


class TestEvaluate(Demo):
    def test_files_scores_records(self) -> None:
        run = self.fx.run("both")
        self.assertTrue((run.path / "summary.json").is_file())
        self.assertEqual(run.systems, ["baseline", "reviser"])
        scores = run.scores()
        # Every score is summary.json's own value and text, system by system.
        want = {(s["system"], v["id"]): v for s in run.summary["metrics"]["systems"] for v in s["values"]}
        self.assertEqual(len(scores), len(want))
        for sc in scores:
            v = want[(sc.system, sc.metric)]
            self.assertEqual((sc.value, sc.text, sc.interval, sc.n), (v.get("value"), v["text"], v.get("ci_text", ""), v["n"]))
        ex = scores.get("reviser", "ex")
        self.assertIsNotNone(ex)
        self.assertEqual(ex.label, "EX")
        self.assertEqual(ex.text, "73.47")  # the demo's reviser (TestCompareGate pins it too)
        self.assertRegex(ex.interval, r"^\[\d+\.\d\d, \d+\.\d\d\]$")
        self.assertIn("reviser", repr(scores))
        self.assertIn("73.47", repr(scores))
        self.assertIsNone(scores.get("nobody", "ex"))

    def test_records_equal_records_jsonl(self) -> None:
        run = self.fx.run("both")
        got = list(run.records("baseline"))
        path = run.records_path("baseline")
        with open(path, encoding="utf-8") as f:
            want = [json.loads(line) for line in f if line.strip()]
        self.assertEqual(got, want)
        with open(self.questions, encoding="utf-8") as f:
            self.assertEqual(len(got), sum(1 for line in f if line.strip()))  # every question, judged or not

    def test_list_of_strings_equals_file(self) -> None:
        base = self.fx.run("both")
        sqls = [r["pred_sql"] for r in base.records("baseline")]
        self.assertFalse(any("\n" in s for s in sqls), "the demo's SQL is one line each (a Spider text file)")
        txt = self.out_dir("baseline.txt")
        txt.write_text("".join(s + "\n" for s in sqls), encoding="utf-8")
        from_file = self.evaluate({"b": str(txt)})
        from_list = self.evaluate({"b": sqls})
        self.assertEqual(from_list.scores().get("b", "ex").text, from_file.scores().get("b", "ex").text)
        self.assertEqual(verdicts(from_list, "b"), verdicts(from_file, "b"))
        self.assertEqual(verdicts(from_list, "b"), verdicts(base, "baseline"))
        self.assertEqual([s.text for s in from_list.scores()], [s.text for s in from_file.scores()])

    def test_dict_of_ids_equals_file(self) -> None:
        base = self.fx.run("both")
        by_id = {r["question_id"]: r["pred_sql"] for r in base.records("reviser")}
        from_dict = self.evaluate({"reviser": by_id})
        self.assertEqual(verdicts(from_dict, "reviser"), verdicts(base, "reviser"))
        self.assertEqual(from_dict.scores().get("reviser", "ex").text, "73.47")

    def test_out_metrics_and_options(self) -> None:
        out = self.out_dir("kept")
        run = self.evaluate({"baseline": self.systems["baseline"]}, out=out, metrics=["ex", "soft_f1"], semantics="bird",
                            hash_dbs=True, allow_missing=False, details=None)
        self.assertEqual(run.path, out)
        self.assertEqual(sorted({s.metric for s in run.scores()}) , sorted(run.summary["manifest"]["settings"]["metrics"]))
        self.assertEqual(run.summary["manifest"]["settings"]["semantics"], "bird")
        self.assertTrue(run.summary["manifest"]["hashed_dbs"])
        del run
        gc.collect()
        self.assertTrue((out / "summary.json").is_file(), "a run written to out is never removed")

    def test_temporary_run_lives_with_the_run(self) -> None:
        run = self.evaluate({"baseline": self.systems["baseline"]})
        path = run.path
        self.assertTrue(path.is_dir())
        del run
        gc.collect()
        self.assertFalse(path.exists(), "the temporary run directory outlived its Run")
        run = self.evaluate({"baseline": self.systems["baseline"]})
        path = run.path
        run.cleanup()
        self.assertFalse(path.exists())

    def test_progress_goes_to_stderr(self) -> None:
        err = io.StringIO()
        with redirect_stderr(err):
            self.evaluate({"baseline": self.systems["baseline"]}, quiet=False)
        self.assertIn("warning", err.getvalue())


class TestOpenRunAndCompare(Demo):
    def test_open_run(self) -> None:
        run = nl2sqlbench.open_run(self.demo_run)
        self.assertEqual(run.systems, sorted(self.systems))
        with open(self.demo_run / "summary.json", encoding="utf-8") as f:
            self.assertEqual(run.summary, json.load(f))
        self.assertEqual(len(list(run.records("reviser"))), 51)
        self.assertTrue(run.scores())

    def test_compare(self) -> None:
        good, bad = self.fx.run("good"), self.fx.run("bad")
        c = nl2sqlbench.compare(good, bad)  # a Run each
        self.assertTrue(c.regression)
        self.assertEqual((c.system, c.metric, c.outcome, c.change_text), ("s", "ex", "regression", "-32.65"))
        self.assertEqual(c.a["text"], "73.47")
        self.assertLess(c.p_value, 0.05)
        self.assertIn("regression", str(c))
        c = nl2sqlbench.compare(str(bad.path), good.path, metric="soft_f1", system="s")  # paths
        self.assertEqual(c.outcome, "improvement")
        self.assertEqual(c.test["method"], "paired_bootstrap")
        c = nl2sqlbench.compare(good, good, alpha=0.01)
        self.assertEqual((c.outcome, c.change_text), ("no_change", "0.00"))


class TestErrors(Demo):
    def assertToolError(self, fn, code, text) -> nl2sqlbench.Error:
        with self.assertRaises(nl2sqlbench.Error) as cm:
            fn()
        e = cm.exception
        self.assertEqual(e.exit_code, code, str(e))
        self.assertIn(text, e.message)
        if code is not None:
            self.assertIn(text, e.stderr)
            self.assertIn(f"exit status {code}", str(e))
        return e

    def test_eval_errors_carry_message_and_exit_code(self) -> None:
        preds = {"baseline": self.systems["baseline"]}
        self.assertToolError(lambda: nl2sqlbench.evaluate("nope:" + self.questions, preds, quiet=True), 2, "unknown dataset kind")  # a usage error
        self.assertToolError(lambda: self.evaluate({"x": str(self.out_dir("absent.txt"))}), 1, "absent.txt")
        self.assertToolError(lambda: self.evaluate(preds, no_such_flag=1), 2, "no-such-flag")
        self.assertToolError(lambda: self.evaluate(preds, timeout="0s"), 2, "--timeout")
        self.assertToolError(lambda: self.evaluate({"short": ["SELECT 1"] * 3}), 1, "3")  # 3 SQL for 51 questions
        self.assertToolError(lambda: self.evaluate({"ids": {"no-such-id": "SELECT 1"}}), 1, "no-such-id")
        full = self.out_dir("full")
        full.mkdir()
        (full / "keep.txt").write_text("an earlier run", encoding="utf-8")
        self.assertToolError(lambda: self.evaluate(preds, out=full), 1, str(full))
        self.assertEqual((full / "keep.txt").read_text(encoding="utf-8"), "an earlier run")

    def test_failed_eval_leaves_no_temporary_directory(self) -> None:
        before = set(glob.glob(os.path.join(tempfile.gettempdir(), "nl2sqlbench-*")))
        with self.assertRaises(nl2sqlbench.Error):
            self.evaluate({"x": str(self.out_dir("absent.txt"))})
        self.assertEqual(set(glob.glob(os.path.join(tempfile.gettempdir(), "nl2sqlbench-*"))), before)

    def test_python_argument_errors(self) -> None:
        preds = {"baseline": self.systems["baseline"]}
        for bad in (lambda: self.evaluate({}), lambda: self.evaluate(["a"]), lambda: self.evaluate({"s": 42}),
                    lambda: self.evaluate({"s": ["SELECT 1", 7]}), lambda: self.evaluate({"s": {"q": 1}}),
                    lambda: self.evaluate(preds, pred="x"), lambda: self.evaluate(preds, metrics=[]),
                    lambda: nl2sqlbench.evaluate(42, preds), lambda: nl2sqlbench.compare(1, 2)):
            with self.assertRaises(TypeError):
                bad()
        self.assertToolError(lambda: self.evaluate({"a=b": self.systems["baseline"]}), None, "'='")

    def test_compare_errors(self) -> None:
        a = self.fx.run("bad")
        self.assertToolError(lambda: nl2sqlbench.compare(a, a, metric="nope", quiet=True), 2, "nope")
        self.assertToolError(lambda: nl2sqlbench.compare(a, a, system="other", quiet=True), 2, "not in both runs")
        self.assertToolError(lambda: nl2sqlbench.compare(a, self.out_dir("no-run"), quiet=True), 1, "no-run")
        other_q = self.out_dir("other.jsonl")
        other_q.write_text(Path(self.questions).read_text(encoding="utf-8") + "\n", encoding="utf-8")
        b = nl2sqlbench.evaluate("jsonl:" + str(other_q), {"s": self.systems["baseline"]}, db_root=self.db_root,
                                 timeout="1s", max_rows=100000, quiet=True)
        self.assertToolError(lambda: nl2sqlbench.compare(a, b, quiet=True), 1, "different datasets")

    def test_open_run_and_records_errors(self) -> None:
        self.assertToolError(lambda: nl2sqlbench.open_run(self.out_dir("nothing")), None, "not a run directory")
        empty = self.out_dir("empty-run")
        empty.mkdir()
        self.assertToolError(lambda: nl2sqlbench.open_run(empty), None, "summary.json")
        broken = self.out_dir("broken-run")
        broken.mkdir()
        (broken / "summary.json").write_text("{not json", encoding="utf-8")
        self.assertToolError(lambda: nl2sqlbench.open_run(broken), None, "not valid JSON")
        (broken / "summary.json").write_text("[1]", encoding="utf-8")
        self.assertToolError(lambda: nl2sqlbench.open_run(broken), None, "not a JSON object")

        copy = self.out_dir("copy")
        shutil.copytree(self.demo_run, copy)
        run = nl2sqlbench.open_run(copy)  # an intact copy passes the integrity check
        self.assertToolError(lambda: list(run.records("nobody")), None, "no system 'nobody'")
        path = run.records_path("baseline")
        lines = path.read_text(encoding="utf-8").splitlines()
        lines[2] = "{truncated"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        self.assertToolError(lambda: list(run.records("baseline")), None, f"{path}:3")
        path.unlink()
        self.assertToolError(lambda: list(run.records("baseline")), None, "open records")
        # A summary.json naming a system directory outside the run is refused, not followed.
        s = json.loads((copy / "summary.json").read_text(encoding="utf-8"))
        s["systems"][0]["dir"] = "../../etc"
        (copy / "summary.json").write_text(json.dumps(s), encoding="utf-8")
        # The edit is caught by the run's recorded hashes before anything is read...
        self.assertToolError(lambda: nl2sqlbench.open_run(copy), 1, "changed after it was written")
        # ...and read anyway when asked, the directory is still refused, not followed.
        run = nl2sqlbench.open_run(copy, check=False)
        self.assertToolError(lambda: list(run.records(s["systems"][0]["system"])), None, "outside the run")

    def test_open_run_hostile_files(self) -> None:
        # A run directory may come from someone else: with check=False nothing in it is
        # followed out of it, waited on, or read past the binary's caps.
        outside = self.out_dir("outside")
        shutil.copytree(self.demo_run, outside)
        cases = {
            "summary a FIFO": lambda d: (os.remove(d / "summary.json"), os.mkfifo(d / "summary.json")),
            "summary a symlink out": lambda d: (os.remove(d / "summary.json"), os.symlink(outside / "summary.json", d / "summary.json")),
            "summary sparse over its cap": lambda d: os.truncate(d / "summary.json", nl2sqlbench._run.MAX_SUMMARY + 1),
        }
        want = {"summary a FIFO": "not a regular file", "summary a symlink out": "leaves the run directory",
                "summary sparse over its cap": "over the cap"}
        for name, attack in cases.items():
            with self.subTest(name):
                d = self.out_dir(name.replace(" ", "-"))
                shutil.copytree(self.demo_run, d)
                attack(d)
                self.assertToolError(lambda: nl2sqlbench.open_run(d, check=False), None, want[name])
        records = {
            "records a FIFO": (lambda p: (p.unlink(), os.mkfifo(p)), "not a regular file"),
            "records a symlink out": (lambda p: (p.unlink(), os.symlink(outside / p.relative_to(p.parents[1]), p)), "leaves the run directory"),
            "records sparse over its cap": (lambda p: os.truncate(p, nl2sqlbench._run.MAX_RECORDS + 1), "over the cap"),
            "a line over its cap": (lambda p: p.write_text("x" * (nl2sqlbench._run.MAX_RECORD_LINE + 2), encoding="utf-8"), ":1: a line over"),
        }
        for name, (attack, msg) in records.items():
            with self.subTest(name):
                d = self.out_dir(name.replace(" ", "-"))
                shutil.copytree(self.demo_run, d)
                run = nl2sqlbench.open_run(d, check=False)
                attack(run.records_path("baseline"))
                self.assertToolError(lambda: list(run.records("baseline")), None, msg)

    def test_binary_errors(self) -> None:
        old = os.environ.get("NL2SQLBENCH_BINARY")
        try:
            os.environ["NL2SQLBENCH_BINARY"] = str(self.out_dir("no-binary"))
            self.assertToolError(lambda: self.evaluate({"b": self.systems["baseline"]}), None, "not an executable")
        finally:
            if old is None:
                os.environ.pop("NL2SQLBENCH_BINARY", None)
            else:
                os.environ["NL2SQLBENCH_BINARY"] = old

    def test_to_pandas(self) -> None:
        run = nl2sqlbench.open_run(self.demo_run)
        try:
            import pandas  # noqa: F401
        except ImportError:
            with self.assertRaises(ImportError) as cm:
                run.to_pandas()
            self.assertIn("pip install pandas", str(cm.exception))
        else:
            df = run.to_pandas()
            self.assertEqual(len(df), len(run.scores()))
            self.assertEqual(list(df["text"]), [s.text for s in run.scores()])


class TestCommand(unittest.TestCase):
    def test_python_m_and_console_script(self) -> None:
        want = subprocess.run([binary_path(), "version"], check=True, capture_output=True, text=True).stdout
        self.assertTrue(want.startswith("nl2sqlbench "))
        got = subprocess.run([sys.executable, "-m", "nl2sqlbench", "version"], check=True, capture_output=True, text=True)
        self.assertEqual(got.stdout, want)
        bad = subprocess.run([sys.executable, "-m", "nl2sqlbench", "eval"], capture_output=True, text=True)
        self.assertEqual(bad.returncode, 2, bad.stderr)  # the binary's usage error, its exit status passed through
        script = Path(sys.executable).parent / "nl2sqlbench"
        if not script.exists():
            self.skipTest(f"no console script at {script} (not an installed wheel)")
        got = subprocess.run([str(script), "--version"], check=True, capture_output=True, text=True)
        self.assertEqual(got.stdout, want)

    def test_version_matches_binary(self) -> None:
        if nl2sqlbench.__version__ == "0+source":
            self.skipTest("running from the source tree: the version is written into the wheel")
        out = subprocess.run([binary_path(), "version"], check=True, capture_output=True, text=True).stdout
        self.assertEqual(out, f"nl2sqlbench {nl2sqlbench.__version__}\n")


@unittest.skipUnless(DAIL.is_file(), f"skipping: Spider data not found at {SPIDER} (../shared beside the repository)")
class TestSpider(unittest.TestCase):
    """The issue's one-liner: DAIL on Spider dev gives the CLI's EX."""

    def test_dail_same_ex_as_cli(self) -> None:
        run = nl2sqlbench.evaluate(f"spider:{SPIDER}", {"DAIL": str(DAIL)}, metrics="ex", quiet=True)
        with tempfile.TemporaryDirectory() as tmp:
            out = subprocess.run([binary_path(), "eval", "--dataset", f"spider:{SPIDER}", "--pred", f"DAIL={DAIL}",
                                  "--metrics", "ex", "--json", "--out", os.path.join(tmp, "run")],
                                 check=True, capture_output=True, text=True).stdout
        cli = json.loads(out)
        (cli_ex,) = [v for s in cli["metrics"]["systems"] for v in s["values"] if v["id"] == "ex"]
        self.assertEqual(run.scores().get("DAIL", "ex").text, cli_ex["text"])
        self.assertEqual(cli_ex["text"], "83.23")  # the README's figure
        # The same SQL as a Python list (one per line of the Spider text file) scores the same.
        sqls = DAIL.read_text(encoding="utf-8").splitlines()
        from_list = nl2sqlbench.evaluate(f"spider:{SPIDER}", {"DAIL": sqls}, metrics="ex", quiet=True)
        self.assertEqual(verdicts(from_list, "DAIL"), verdicts(run, "DAIL"))


if __name__ == "__main__":
    unittest.main()
