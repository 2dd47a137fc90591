#!/usr/bin/python3
"""Runs the official LiveSQLBench evaluator (PostgreSQL) on bat-interact's Query tasks,
with each task's gold sol_sql as the prediction, and prints one verdict per task:

    instance_id <TAB> pass|fail <TAB> execution_error|timeout|assertion|-

The reference modules are imported read-only from ../shared (never copied here); only
their database settings are pointed at our server. Needs python3-psycopg2 and the
PostgreSQL client programs (psql, createdb, dropdb), which the official reset uses.

    eval "$(bash .ci/servers.sh)"
    go test ./internal/livesql -run TestConformance -update-template   # prints the template name
    /usr/bin/python3 scripts/livesql_official_verdicts.py TEMPLATE > internal/livesql/testdata/official_verdicts.tsv

TEMPLATE is the task database template nl2sqlbench built (taskdb.TemplateName), so both
sides start from the same data. Runs one task at a time.
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
    ephemeral = base + "_process_1"
    maint = dict(dbname=dsn.path.lstrip("/") or "postgres", host=dsn.hostname, port=dsn.port or 5432,
                 user=urllib.parse.unquote(dsn.username), password=password)
    import psycopg2
    c = psycopg2.connect(**maint)
    c.autocommit = True
    cur = c.cursor()
    for db in (ephemeral, base + "_template"):
        cur.execute('DROP DATABASE IF EXISTS "%s" WITH (FORCE)' % db)
    cur.execute('CREATE DATABASE "%s" TEMPLATE "%s"' % (base + "_template", a.template))
    cur.execute('CREATE DATABASE "%s" TEMPLATE "%s"' % (ephemeral, base + "_template"))

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

    out_dir = tempfile.mkdtemp(prefix="lsbref-")
    args = argparse.Namespace(jsonl_file=os.path.join(out_dir, "gold.jsonl"), logging="false", output_dir=out_dir)
    lock = threading.Lock()
    try:
        for t in tasks:
            if t.get("category") != "Query" or (only and t["instance_id"] not in only):
                continue
            item = dict(t, pred_sqls=t["sol_sql"], selected_database="db_blog")
            q = queue.Queue()
            q.put(ephemeral)
            res = evaluation.process_one_instance(item, {"db_blog": q}, args, lock)
            kind = "-"
            if res["evaluation_phase_execution_error"]:
                kind = "execution_error"
            elif res["evaluation_phase_timeout_error"]:
                kind = "timeout"
            elif res["evaluation_phase_assertion_error"]:
                kind = "assertion"
            print("%s\t%s\t%s" % (t["instance_id"], "pass" if res["status"] == "success" else "fail", kind), file=out, flush=True)
    finally:
        db_utils.close_all_postgresql_pools()
        for db in (ephemeral, base + "_template"):
            cur.execute('DROP DATABASE IF EXISTS "%s" WITH (FORCE)' % db)


if __name__ == "__main__":
    main()
