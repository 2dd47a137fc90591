#!/usr/bin/python3
"""Runs the official LiveSQLBench evaluator (PostgreSQL) on bat-interact's tasks (the
first turn: Query tasks by its default test case, Management tasks by their test code),
with each task's gold sol_sql as the prediction (or, with --preds FILE, the pred_sqls of
FILE's JSON lines by instance_id), and prints one verdict per task, in the task file's
order:

    instance_id <TAB> pass|fail <TAB> execution_error|timeout|assertion|-

The reference modules are imported read-only from ../shared (never copied here); only
their database settings are pointed at our server. Needs python3-psycopg2 and the
PostgreSQL client programs (psql, createdb, dropdb), which the official reset uses.

    eval "$(bash .ci/servers.sh)"
    go test ./internal/livesql -run TestConformance -update-template   # prints the template name
    /usr/bin/python3 scripts/livesql_official_verdicts.py TEMPLATE > internal/livesql/testdata/official_verdicts.tsv

TEMPLATE is the task database template nl2sqlbench built (taskdb.TemplateName), so both
sides start from the same data. --threads N runs N tasks at a time on N copies, as the
evaluator's main does (4 by default there; 1 here unless given); --all judges the
Management tasks too (default: Query only). The wall time is printed on stderr.
"""
import json
import os
import sys
import tempfile
import threading
import types
import queue
import urllib.parse
import argparse
import time
from concurrent.futures import ThreadPoolExecutor

here = os.path.dirname(os.path.abspath(__file__))
shared = os.environ.get("NL2SQLBENCH_SHARED", os.path.join(here, "..", "..", "shared"))
ref = os.path.join(shared, "data", "evalbench", "reference", "livesqlbench")
data = os.path.join(shared, "data", "evalbench", "bat-interact", "prompts.jsonl")

sys.dont_write_bytecode = True  # the reference folder is read-only to us
sys.modules.setdefault("tqdm", types.SimpleNamespace(tqdm=None))  # imported, unused on this path
sys.path.insert(0, ref)
import db_config  # noqa: E402
import db_utils  # noqa: E402
import evaluation  # noqa: E402


def main():
    # Only verdicts go to stdout; the evaluator's prints (set_global_db_config prints the
    # password it is given) go to stderr, and the password line not even there.
    out = sys.stdout
    sys.stdout = sys.stderr
    ap = argparse.ArgumentParser()
    ap.add_argument("template", help="the PostgreSQL template database nl2sqlbench built")
    ap.add_argument("--only", help="comma-separated instance ids")
    ap.add_argument("--all", action="store_true", help="Management tasks too (their test cases run)")
    ap.add_argument("--threads", type=int, default=1, help="tasks at a time, each on its own copy")
    ap.add_argument("--preds", help="JSONL of {instance_id, pred_sqls} judged instead of the golds")
    a = ap.parse_args()

    dsn = urllib.parse.urlparse(os.environ["NL2SQLBENCH_PG_DSN"].replace("{db}", "x"))
    password = urllib.parse.unquote(dsn.password or "")
    sys.stdout = open(os.devnull, "w")
    db_config.set_global_db_config(host=dsn.hostname, port=dsn.port or 5432,
                                   user=urllib.parse.unquote(dsn.username), password=password)
    sys.stdout = sys.stderr
    os.environ["PGPASSWORD"] = password

    # The evaluator's own names: <db>_template, copied to <db>_process_N.
    base = "lsbref_db_blog"
    ephemerals = [base + "_process_%d" % (k + 1) for k in range(max(a.threads, 1))]
    maint = dict(dbname=dsn.path.lstrip("/") or "postgres", host=dsn.hostname, port=dsn.port or 5432,
                 user=urllib.parse.unquote(dsn.username), password=password)
    import psycopg2
    c = psycopg2.connect(**maint)
    c.autocommit = True
    cur = c.cursor()
    for db in ephemerals + [base + "_template"]:
        cur.execute('DROP DATABASE IF EXISTS "%s" WITH (FORCE)' % db)
    t0 = time.time()
    cur.execute('CREATE DATABASE "%s" TEMPLATE "%s"' % (base + "_template", a.template))
    for e in ephemerals:
        cur.execute('CREATE DATABASE "%s" TEMPLATE "%s"' % (e, base + "_template"))

    # reset_and_restore_database is given the password "123123" by the evaluator; ours
    # comes from the environment (PGPASSWORD) instead.
    orig_reset = evaluation.reset_and_restore_database
    evaluation.reset_and_restore_database = lambda db, _pw, logger: orig_reset(db, password, logger)

    text = open(data).read()
    dec = json.JSONDecoder()
    tasks, i = [], 0
    while True:  # the task file holds several objects on some lines: a stream of values
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            break
        obj, i = dec.raw_decode(text, i)
        tasks.append(obj)
    only = set(a.only.split(",")) if a.only else None
    preds = None
    if a.preds:
        preds = {}
        for line in open(a.preds):
            if line.strip():
                o = json.loads(line)
                preds[o["instance_id"]] = o["pred_sqls"]

    out_dir = tempfile.mkdtemp(prefix="lsbref-")
    args = argparse.Namespace(jsonl_file=os.path.join(out_dir, "gold.jsonl"), logging="false", output_dir=out_dir)
    lock = threading.Lock()
    pool = queue.Queue()
    for e in ephemerals:
        pool.put(e)

    def judge(t):
        pred = t["sol_sql"] if preds is None else preds[t["instance_id"]]
        item = dict(t, pred_sqls=pred, selected_database="db_blog")
        res = evaluation.process_one_instance(item, {"db_blog": pool}, args, lock)
        kind = "-"
        if res["evaluation_phase_execution_error"]:
            kind = "execution_error"
        elif res["evaluation_phase_timeout_error"]:
            kind = "timeout"
        elif res["evaluation_phase_assertion_error"]:
            kind = "assertion"
        return "%s\t%s\t%s" % (t["instance_id"], "pass" if res["status"] == "success" else "fail", kind)

    todo = [t for t in tasks if (a.all or t.get("category") == "Query") and (not only or t["instance_id"] in only)
            and (preds is None or t["instance_id"] in preds)]
    try:
        with ThreadPoolExecutor(max_workers=max(a.threads, 1)) as ex:
            for line in ex.map(judge, todo):
                print(line, file=out, flush=True)
        print("official evaluator: %d tasks in %.1f s (%d threads)" % (len(todo), time.time() - t0, a.threads), file=sys.stderr)
    finally:
        db_utils.close_all_postgresql_pools()
        for db in ephemerals + [base + "_template"]:
            cur.execute('DROP DATABASE IF EXISTS "%s" WITH (FORCE)' % db)


if __name__ == "__main__":
    main()
