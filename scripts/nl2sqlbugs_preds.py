#!/usr/bin/env python3
"""Turn NL2SQL-BUGs' labelled SQL into BIRD prediction files, so that `nl2sqlbench eval`
judges them and `nl2sqlbench agreement --labels NL2SQL-Bugs.json` sets every verdict
against the experts' labels (docs/agreement.md).

NL2SQL-BUGs holds up to three SQL queries per BIRD dev question; a run holds one
prediction per question and system, so the k-th query of each question goes to the file
of system bugs<k>. Questions are found in BIRD's dev.json by db_id and text (whitespace
aside), as agreement matches them.

usage: nl2sqlbugs_preds.py NL2SQL-Bugs.json BIRD_DEV_JSON OUT_DIR [DB_ID ...]
"""
import json
import os
import sys


def norm(s):
    return " ".join(s.split())


def main(argv):
    if len(argv) < 4:
        sys.exit(__doc__)
    bugs_path, dev_path, out = argv[1:4]
    only = set(argv[4:])
    with open(bugs_path, encoding="utf-8") as f:
        bugs = json.load(f)
    with open(dev_path, encoding="utf-8") as f:
        dev = json.load(f)
    index = {(q["db_id"], norm(q["question"])): i for i, q in enumerate(dev)}
    slots, unmatched = [], 0
    seen = {}
    for e in bugs:
        if only and e["db_id"] not in only:
            continue
        i = index.get((e["db_id"], norm(e["question"])))
        if i is None:
            unmatched += 1
            continue
        k = seen.get(i, 0)
        seen[i] = k + 1
        while len(slots) <= k:
            slots.append({})
        slots[k][str(i)] = e["sql"] + "\t----- bird -----\t" + e["db_id"]
    os.makedirs(out, exist_ok=True)
    for k, preds in enumerate(slots, 1):
        with open(os.path.join(out, f"bugs{k}.json"), "w", encoding="utf-8") as f:
            json.dump(preds, f, indent=1)
        print(f"bugs{k}.json: {len(preds)} predictions")
    if unmatched:
        print(f"{unmatched} entries name a question not in {dev_path}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv)
