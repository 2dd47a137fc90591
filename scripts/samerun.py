#!/usr/bin/env python3
"""samerun.py MERGED FULL SYSTEM...: is a merged (sharded) run the same as an unsharded one?

Records are compared without their wall times (exec_ms, gold_ms, pred_ms differ between
any two runs); statistics.json byte for byte; summary.json without created_at, the
manifest and the file hashes (files: the sha256 of records that hold those wall times).
Exits 1 naming every difference; used by shard_check.sh and slurm_check.sh.
"""
import json
import sys

TIMING = ("exec_ms", "gold_ms", "pred_ms")
UNCOMPARED = ("created_at", "manifest", "files")


def records(d, s):
    out = []
    with open(f"{d}/{s}/records.jsonl") as f:
        for line in f:
            r = json.loads(line)
            for k in TIMING:
                r.pop(k, None)
            out.append(r)
    return out


def summary(d):
    with open(f"{d}/summary.json") as f:
        j = json.load(f)
    for k in UNCOMPARED:
        j.pop(k, None)
    return j


def main(merged, full, systems):
    bad, n = [], 0
    for s in systems:
        a, b = records(full, s), records(merged, s)
        n += len(a)
        if a != b:
            i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
            bad.append(f"{s} records differ (first at line {i + 1}; {len(a)} vs {len(b)} records)")
        with open(f"{full}/{s}/statistics.json") as x, open(f"{merged}/{s}/statistics.json") as y:
            if x.read() != y.read():
                bad.append(f"{s} statistics.json differs")
    a, b = summary(full), summary(merged)
    if a.get("metrics") != b.get("metrics"):
        bad.append("summary.json metrics differ")
    if a != b:
        bad.append("summary.json differs: " + ", ".join(k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)))
    if bad:
        print("DIFFERENT: " + "; ".join(bad))
        return 1
    print(f"merged run identical to the unsharded one: {n} records ({len(systems)} systems, {', '.join(TIMING)} aside), "
          f"statistics.json, summary.json ({len(a['metrics']['definitions'])} metrics x {len(a['metrics']['systems'])} systems; "
          f"{', '.join(UNCOMPARED)} aside)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
