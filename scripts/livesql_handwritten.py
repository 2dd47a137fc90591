#!/usr/bin/python3
"""Writes the wrong predictions and equivalent rewrites of bat-interact tasks that
internal/benchrun's TestLiveSQLHandwritten judges (testdata/livesql_handwritten.jsonl): each is a
gold-passing task's gold edited by one named rule, one task per prediction.

    /usr/bin/python3 scripts/livesql_handwritten.py > internal/benchrun/testdata/livesql_handwritten.jsonl
    /usr/bin/python3 scripts/livesql_official_verdicts.py TEMPLATE --all --threads 4 \
        --preds internal/benchrun/testdata/livesql_handwritten.jsonl > internal/benchrun/testdata/livesql_handwritten_official.tsv

The rules (kind: wrong or rewrite) say what each edit does; the expected verdicts are the
official evaluator's, whatever the edit's intent (a "wrong" edit the evaluator passes is a
finding: it shows what the evaluator does not see).
"""
import json
import os
import re
import sys

here = os.path.dirname(os.path.abspath(__file__))
shared = os.environ.get("NL2SQLBENCH_SHARED", os.path.join(here, "..", "..", "shared"))
data = os.path.join(shared, "data", "evalbench", "bat-interact", "prompts.jsonl")
verdicts = os.path.join(here, "..", "internal", "livesql", "testdata", "gold_official_all.tsv")


def tasks():
    text = open(data).read()
    dec, i, out = json.JSONDecoder(), 0, []
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return out
        o, i = dec.raw_decode(text, i)
        out.append(o)


def body(sql):
    return sql.strip().rstrip(";").strip()


def first_kw(sql):
    m = re.match(r"\s*(\w+)", sql)
    return m.group(1).upper() if m else ""


# Each rule: (name, kind, applies(task) -> bool, edit(gold statements) -> prediction).
RULES = [
    ("offset_drops_a_row", "wrong", 20, lambda t: t["category"] == "Query",
     lambda g: ["SELECT * FROM (%s) AS w OFFSET 1" % body(g[0])]),
    ("where_filter_dropped", "wrong", 15, lambda t: t["category"] == "Query" and re.search(r"\bWHERE\b", t["sol_sql"][0], re.I),
     lambda g: [re.sub(r"\bWHERE\b", "WHERE 1 = 1 OR", g[0], count=1, flags=re.I)]),
    ("distinct_missing", "wrong", 10, lambda t: t["category"] == "Query" and t["conditions"].get("distinct") and re.search(r"\bDISTINCT\b(?!\s+ON)", t["sol_sql"][0], re.I),
     lambda g: [re.sub(r"\bDISTINCT\b(?!\s+ON)\s*", "", g[0], count=1, flags=re.I)]),
    ("rounding_wrong", "wrong", 7, lambda t: t["category"] == "Query" and re.search(r"ROUND\s*\(", t["sol_sql"][0], re.I),
     lambda g: [re.sub(r",\s*2\s*\)", ", 0)", g[0])]),
    ("delete_everything", "wrong", 15, lambda t: t["category"] == "Management" and first_kw(t["sol_sql"][0]) == "DELETE",
     lambda g: [re.sub(r"(?is)^(\s*DELETE\s+FROM\s+[\w.\"]+).*$", r"\1;", g[0])] + g[1:]),
    ("update_every_row", "wrong", 17, lambda t: t["category"] == "Management" and first_kw(t["sol_sql"][0]) == "UPDATE" and re.search(r"\bWHERE\b", t["sol_sql"][0], re.I),
     lambda g: [re.sub(r"(?is)\s+WHERE\b.*$", ";", g[0])] + g[1:]),
    ("management_noop", "wrong", 10, lambda t: t["category"] == "Management",
     lambda g: ["SELECT 1"]),
    ("cte_wrap", "rewrite", 25, lambda t: t["category"] == "Query" and not t["conditions"].get("order"),
     lambda g: ["WITH rw AS (%s) SELECT * FROM rw" % body(g[0])]),
    ("comment_added", "rewrite", 10, lambda t: t["category"] == "Query",
     lambda g: ["/* an equivalent rewrite */\n" + g[0] + "\n-- end"]),
    ("management_comment", "rewrite", 10, lambda t: t["category"] == "Management",
     lambda g: ["-- the gold, commented\n" + g[0]] + g[1:]),
]


def main():
    passed = {}
    for line in open(verdicts):
        f = line.rstrip("\n").split("\t")
        passed[f[0]] = f[1] == "pass"
    used = set()
    all_tasks = tasks()
    n = 0
    for name, kind, want, applies, edit in RULES:
        got = 0
        for t in all_tasks:
            if got == want:
                break
            if t["instance_id"] in used or not passed.get(t["instance_id"]) or not t["sol_sql"] or not applies(t):
                continue
            pred = edit(t["sol_sql"])
            if pred == t["sol_sql"]:
                continue
            used.add(t["instance_id"])
            got += 1
            n += 1
            print(json.dumps({"instance_id": t["instance_id"], "rule": name, "kind": kind, "pred_sqls": pred}))
        print("%s (%s): %d" % (name, kind, got), file=sys.stderr)
    print("%d predictions" % n, file=sys.stderr)


if __name__ == "__main__":
    main()
