#!/usr/bin/env python3
"""Generate the ETM shape pairs and record the ETM authors' script's verdict on each.

The pairs exercise the corners where official mode (internal/match) once disagreed
with the script: a GROUP BY on one side of an equi-join key, NOT IN / IN over a
subquery with joins, aliases in ON, ORDER BY of a compound query, rule 13 on a
subquery with joins, each alone, inside UNION / INTERSECT / EXCEPT branches and
inside subqueries, with aliases and without. TestETMShapes checks official mode
against the recorded verdicts.

Usage (the script needs sqlglot 26.6.0, the version its requirements pin):
  PYTHONPATH=/path/to/sqlglot-26.6.0 python3 scripts/etm_shapes.py --etm /path/to/ETM \
      > internal/match/testdata/etm_shapes/pairs.jsonl
--etm is a checkout of the authors' repository (treeMatch.py, ETM_utils/). Only the
tree comparison is used; its imports need nltk, networkx and tqdm to be importable
(stand-ins do: the tree comparison calls none of them).
"""
import argparse
import contextlib
import copy
import json
import os
import sqlite3
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "..", "internal", "match", "testdata", "etm_shapes", "schema.sql")
ALLRULES = [100, 101, 102, 103, 104, 105, 106, 107, 108] + list(range(1, 27))

# --- shape A: GROUP BY on one side of the equi-join key -------------------------------
# Each form is a way to write "professionals treated more than twice"; {g} is the GROUP
# BY column: the key on prof's side or on treat's side of the join.
A_FORMS = {
    "plain": ("SELECT prof.pid, prof.name FROM prof JOIN treat ON prof.pid = treat.pid "
              "GROUP BY {g} HAVING count(*) > 2", {"p": "prof.pid", "t": "treat.pid"}),
    "swapped": ("SELECT prof.pid, prof.name FROM treat JOIN prof ON treat.pid = prof.pid "
                "GROUP BY {g} HAVING count(*) > 2", {"p": "prof.pid", "t": "treat.pid"}),
    "alias": ("SELECT T1.pid, T1.name FROM prof AS T1 JOIN treat AS T2 ON T1.pid = T2.pid "
              "GROUP BY {g} HAVING count(*) > 2", {"p": "T1.pid", "t": "T2.pid"}),
}
# A near miss: grouping by a column the join does not make equal to the key.
A_MISS = ("SELECT prof.pid, prof.name FROM prof JOIN treat ON prof.pid = treat.pid "
          "GROUP BY treat.cost HAVING count(*) > 2")
A_OTHER = "SELECT pid, name FROM prof WHERE state = 'Indiana'"
A_CONTEXTS = {
    "alone": "{x}",
    "union-2nd": A_OTHER + " UNION {x}",
    "union-1st": "{x} UNION " + A_OTHER,
    "union-all": A_OTHER + " UNION ALL {x}",
    "intersect": A_OTHER + " INTERSECT {x}",
    "except-2nd": A_OTHER + " EXCEPT {x}",
    "except-1st": "{x} EXCEPT " + A_OTHER,
    "union-3": A_OTHER + " UNION {x} UNION SELECT pid, name FROM prof WHERE state = 'Ohio'",
    "union-order": A_OTHER + " UNION {x} ORDER BY name",
    "in-sub": "SELECT cell FROM prof WHERE pid IN (SELECT pid FROM ({x}))",
}
# For the IN-subquery context the select list must be one column: the forms select the
# key and the name; "in-sub" wraps the whole form in a derived table instead.


def shape_a():
    for ctx, tmpl in A_CONTEXTS.items():
        keys = list(A_FORMS)
        for i, fp in enumerate(keys):
            for fg in keys[i:]:
                for gp in "pt":
                    for gg in "pt":
                        if fp == fg and gp == gg:
                            continue
                        sp, cp = A_FORMS[fp]
                        sg, cg = A_FORMS[fg]
                        pred = tmpl.format(x=sp.format(g=cp[gp]))
                        gold = tmpl.format(x=sg.format(g=cg[gg]))
                        yield "A/%s/%s-%s~%s-%s" % (ctx, fp, gp, fg, gg), pred, gold
        yield "A/%s/miss" % ctx, tmpl.format(x=A_MISS), tmpl.format(x=A_FORMS["plain"][0].format(g="prof.pid"))


# --- shape B: [NOT] IN (a subquery over a join) against a plain predicate -------------
B_JOIN_ALIAS = ("FROM student AS T1 JOIN has_pet AS T2 ON T1.stuid = T2.stuid "
                "JOIN pets AS T3 ON T3.petid = T2.petid")
B_JOIN_PLAIN = ("FROM has_pet JOIN student ON has_pet.stuid = student.stuid "
                "JOIN pets ON has_pet.petid = pets.petid")
B_GOLDS = {
    # the outer query joins the pet tables too, the subquery selects the student's key
    "outer-join": "SELECT T1.fname, T1.age " + B_JOIN_ALIAS + " WHERE T3.pettype = 'dog' AND T1.stuid {op} "
                  "(SELECT T1.stuid " + B_JOIN_ALIAS + " WHERE T3.pettype = 'cat')",
    # the subquery selects has_pet's column
    "outer-join-hp": "SELECT T1.fname, T1.age " + B_JOIN_ALIAS + " WHERE T3.pettype = 'dog' AND T1.stuid {op} "
                     "(SELECT T2.stuid FROM has_pet AS T2 JOIN pets AS T3 ON T3.petid = T2.petid WHERE T3.pettype = 'cat')",
    # no join outside: student alone
    "outer-single": "SELECT fname, age FROM student WHERE stuid {op} "
                    "(SELECT T1.stuid " + B_JOIN_ALIAS + " WHERE T3.pettype = 'cat')",
    # the [NOT] IN alone in WHERE
    "outer-join-alone": "SELECT T1.fname, T1.age " + B_JOIN_ALIAS + " WHERE T1.stuid {op} "
                        "(SELECT T1.stuid " + B_JOIN_ALIAS + " WHERE T3.pettype = 'cat')",
    # OR instead of AND
    "outer-join-or": "SELECT T1.fname, T1.age " + B_JOIN_ALIAS + " WHERE T3.pettype = 'dog' OR T1.stuid {op} "
                     "(SELECT T1.stuid " + B_JOIN_ALIAS + " WHERE T3.pettype = 'cat')",
}
B_PREDS = {
    "plain": "SELECT student.fname, student.age " + B_JOIN_PLAIN + " WHERE pets.pettype = 'dog' AND pets.pettype {cmp} 'cat'",
    "alias": "SELECT T1.fname, T1.age " + B_JOIN_ALIAS + " WHERE T3.pettype = 'dog' AND T3.pettype {cmp} 'cat'",
    "not": "SELECT T1.fname, T1.age " + B_JOIN_ALIAS + " WHERE T3.pettype = 'dog' AND NOT T3.pettype {eq} 'cat'",
    "alone": "SELECT T1.fname, T1.age " + B_JOIN_ALIAS + " WHERE T3.pettype {cmp} 'cat'",
    "or": "SELECT T1.fname, T1.age " + B_JOIN_ALIAS + " WHERE T3.pettype = 'dog' OR T3.pettype {cmp} 'cat'",
    "same": None,  # the gold's own shape with the other alias spelling
}
B_CONTEXTS = {
    "alone": "{x}",
    "union": "SELECT fname, age FROM student WHERE city = 'Rome' UNION {x}",
    "except": "{x} EXCEPT SELECT fname, age FROM student WHERE city = 'Rome'",
    "intersect": "SELECT fname, age FROM student WHERE city = 'Rome' INTERSECT {x}",
}


def shape_b():
    for ctx, tmpl in B_CONTEXTS.items():
        for gname, g in B_GOLDS.items():
            for op, cmp, eq in (("NOT IN", "!=", "="), ("IN", "=", "!=")):
                gold = tmpl.format(x=g.format(op=op))
                for pname, p in B_PREDS.items():
                    if p is None:
                        p = g.replace("T1.", "S.").replace("AS T1", "AS S")
                        pred = tmpl.format(x=p.format(op=op))
                    else:
                        pred = tmpl.format(x=p.format(cmp=cmp, eq=eq))
                    yield "B/%s/%s/%s/%s" % (ctx, gname, op.replace(" ", "-").lower(), pname), pred, gold


# --- shape C: an alias used in ON ------------------------------------------------------
C_FORMS = [
    "SELECT treat.cost FROM prof JOIN treat ON prof.pid = treat.pid WHERE prof.state = 'Ohio'",
    "SELECT T2.cost FROM prof AS T1 JOIN treat AS T2 ON T1.pid = T2.pid WHERE T1.state = 'Ohio'",
    "SELECT T2.cost FROM prof AS T1 JOIN treat AS T2 ON T2.pid = T1.pid WHERE T1.state = 'Ohio'",
    "SELECT treat.cost FROM prof JOIN treat AS T2 ON prof.pid = T2.pid WHERE prof.state = 'Ohio'",
    "SELECT cost FROM prof AS a JOIN treat AS b ON a.pid = b.pid WHERE state = 'Ohio'",
    "SELECT b.cost FROM treat AS b JOIN prof AS a ON b.pid = a.pid WHERE a.state = 'Ohio'",
    "SELECT T2.cost FROM prof AS T1 JOIN treat AS T2 ON T1.pid = T2.tid WHERE T1.state = 'Ohio'",  # other ON
    "SELECT T2.cost FROM prof AS T1 JOIN office AS T3 ON T1.pid = T3.pid JOIN treat AS T2 ON T3.pid = T2.pid WHERE T1.state = 'Ohio'",
    "SELECT T2.cost FROM prof AS T1 JOIN office AS T3 ON T1.pid = T3.pid JOIN treat AS T2 ON T1.pid = T2.pid WHERE T1.state = 'Ohio'",
]
C_CONTEXTS = {
    "alone": "{x}",
    "union": "SELECT cost FROM treat WHERE cost > 100 UNION {x}",
    "in-sub": "SELECT name FROM prof WHERE pid IN (SELECT T9.pid FROM treat AS T9 WHERE T9.cost IN ({x}))",
}


def shape_c():
    for ctx, tmpl in C_CONTEXTS.items():
        for i in range(len(C_FORMS)):
            for j in range(i + 1, len(C_FORMS)):
                yield "C/%s/%d~%d" % (ctx, i, j), tmpl.format(x=C_FORMS[i]), tmpl.format(x=C_FORMS[j])


# --- shape D: ORDER BY of a compound query --------------------------------------------
D_BASE = "SELECT {a} FROM prof{al} WHERE {s} = 'Ohio' {op} SELECT {b} FROM student{bl} WHERE {c} = 'Rome'"
D_VARIANTS = {
    "plain": dict(a="name", al="", s="state", b="fname", bl="", c="city"),
    "alias": dict(a="T1.name", al=" AS T1", s="T1.state", b="T2.fname", bl=" AS T2", c="T2.city"),
    "upper": dict(a="NAME", al="", s="STATE", b="FNAME", bl="", c="CITY"),
}
D_ORDERS = ["ORDER BY name", "ORDER BY NAME", "ORDER BY 1", "ORDER BY name DESC LIMIT 1", "ORDER BY T1.name", ""]


def shape_d():
    for op in ("UNION", "INTERSECT", "EXCEPT"):
        names = list(D_VARIANTS)
        for i, vp in enumerate(names):
            for vg in names[i:]:
                for oi, op_ in enumerate(D_ORDERS):
                    for og in D_ORDERS[oi:]:
                        if vp == vg and op_ == og:
                            continue
                        if vp != vg and op_ != og:
                            continue
                        pred = (D_BASE.format(op=op, **D_VARIANTS[vp]) + " " + op_).strip()
                        gold = (D_BASE.format(op=op, **D_VARIANTS[vg]) + " " + og).strip()
                        yield "D/%s/%s~%s/%s~%s" % (op.replace(" ", "-").lower(), vp, vg, op_ or "none", og or "none"), pred, gold


# --- shape E: rule 13 on a subquery with joins ----------------------------------------
E_SUBS = {
    "plain": "SELECT prof.pid FROM prof WHERE prof.state = 'Ohio'",
    "join-office": "SELECT prof.pid FROM prof JOIN office ON prof.pid = office.pid WHERE prof.state = 'Ohio'",
    "join-office-oid": "SELECT prof.pid FROM prof JOIN office ON prof.pid = office.oid WHERE prof.state = 'Ohio'",
    "join-office-alias": "SELECT T1.pid FROM prof AS T1 JOIN office AS T2 ON T1.pid = T2.pid WHERE T1.state = 'Ohio'",
    "join-office-cond": "SELECT prof.pid FROM prof JOIN office ON prof.pid = office.pid WHERE office.city = 'Rome'",
    "join-office-both": "SELECT prof.pid FROM prof JOIN office ON prof.pid = office.pid WHERE prof.state = 'Ohio' AND office.city = 'Rome'",
    "distinct": "SELECT DISTINCT prof.pid FROM prof WHERE prof.state = 'Ohio'",
    # visit sorts after prof: the script's rule 13 then fires and drops the join
    "join-visit": "SELECT prof.pid FROM prof JOIN visit ON prof.pid = visit.pid WHERE prof.state = 'Ohio'",
    "join-visit-vid": "SELECT prof.pid FROM prof JOIN visit ON prof.pid = visit.vid WHERE prof.state = 'Ohio'",
    "join-visit-alias": "SELECT T1.pid FROM prof AS T1 JOIN visit AS T2 ON T1.pid = T2.pid WHERE T1.state = 'Ohio'",
    "join-visit-cond": "SELECT prof.pid FROM prof JOIN visit ON prof.pid = visit.pid WHERE visit.day = 'mon'",
    "left-visit": "SELECT prof.pid FROM prof LEFT JOIN visit ON prof.pid = visit.pid WHERE prof.state = 'Ohio'",
}
E_JOINED = {
    "join": "SELECT treat.cost FROM prof JOIN treat ON prof.pid = treat.pid WHERE prof.state = 'Ohio'",
    "join3": "SELECT treat.cost FROM prof JOIN treat ON prof.pid = treat.pid JOIN office ON prof.pid = office.pid WHERE prof.state = 'Ohio'",
    "join3-visit": "SELECT treat.cost FROM prof JOIN treat ON prof.pid = treat.pid JOIN visit ON prof.pid = visit.pid WHERE visit.day = 'mon'",
}
E_CONTEXTS = {
    "alone": "{x}",
    "sub": "SELECT count(*) FROM treat WHERE cost IN ({x})",
}


def shape_e():
    for ctx, tmpl in E_CONTEXTS.items():
        ins = {k: "SELECT cost FROM treat WHERE pid IN (%s)" % v for k, v in E_SUBS.items()}
        ins.update({k + "-eq": "SELECT cost FROM treat WHERE pid = (%s)" % v for k, v in E_SUBS.items() if k.startswith("join")})
        forms = dict(ins)
        forms.update(E_JOINED)
        names = list(forms)
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                a, b = names[i], names[j]
                # an IN form meets the = forms only through the joined forms
                if a.endswith("-eq") != b.endswith("-eq") and a not in E_JOINED and b not in E_JOINED:
                    continue
                yield "E/%s/%s~%s" % (ctx, a, b), tmpl.format(x=forms[a]), tmpl.format(x=forms[b])


# --- shape F: rule 14 with subqueries; rule 20 on a column that is not a key ----------
F_FORMS = {
    "join-corr-key": "SELECT treat.cost FROM prof JOIN treat ON prof.pid = treat.pid WHERE treat.cost > (SELECT count(*) FROM office WHERE office.pid = prof.pid)",
    "nojoin-corr-fk": "SELECT cost FROM treat WHERE cost > (SELECT count(*) FROM office WHERE office.pid = treat.pid)",
    "join-corr-name": "SELECT treat.cost FROM prof JOIN treat ON prof.pid = treat.pid WHERE treat.cost > (SELECT count(*) FROM office WHERE office.city = prof.name)",
    "join-own": "SELECT treat.cost FROM prof JOIN treat ON prof.pid = treat.pid WHERE treat.cost IN (SELECT prof.pid FROM prof WHERE prof.state = 'Ohio')",
    "nojoin-own": "SELECT cost FROM treat WHERE cost IN (SELECT pid FROM prof WHERE state = 'Ohio')",
    "nojoin-own-fk": "SELECT cost FROM treat WHERE cost IN (SELECT treat.pid FROM prof WHERE state = 'Ohio')",
    "self-in-key": "SELECT name FROM prof WHERE state = 'Ohio' AND pid IN (SELECT pid FROM prof WHERE cell = '555')",
    "self-in-name": "SELECT name FROM prof WHERE state = 'Ohio' AND name IN (SELECT name FROM prof WHERE cell = '555')",
    "self-in-none": "SELECT name FROM prof WHERE state = 'Ohio' AND cell = '555'",
    "self-in-key-nowhere": "SELECT name FROM prof WHERE state = 'Ohio' AND pid IN (SELECT pid FROM prof)",
    "self-in-nowhere": "SELECT name FROM prof WHERE state = 'Ohio'",
}
F_CONTEXTS = {
    "alone": "{x}",
    "union": "SELECT name FROM prof WHERE state = 'Iowa' UNION {x}",
}


def shape_f():
    for ctx, tmpl in F_CONTEXTS.items():
        names = list(F_FORMS)
        for i in range(len(names)):
            for j in range(i + 1, len(names)):
                yield "F/%s/%s~%s" % (ctx, names[i], names[j]), tmpl.format(x=F_FORMS[names[i]]), tmpl.format(x=F_FORMS[names[j]])


def pairs():
    for gen in (shape_a, shape_b, shape_c, shape_d, shape_e, shape_f):
        yield from gen()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--etm", required=True, help="checkout of the ETM authors' repository")
    args = ap.parse_args()
    sys.path.insert(0, args.etm)
    import treeMatch as tm  # the authors' script

    tmp = tempfile.mkdtemp()
    db = os.path.join(tmp, "shapes.sqlite")
    conn = sqlite3.connect(db)
    conn.executescript(open(SCHEMA).read())
    conn.commit()
    schema = tm.get_schema(db)
    cur = conn.cursor()
    seen = set()
    for name, pred, gold in pairs():
        if (pred, gold) in seen:
            continue
        seen.add((pred, gold))
        # As the script's __main__: preprocess, both must prepare, gold is tree1, one
        # schema copy shared by both (rule 19 writes into it).
        g, p = tm.preprocess(gold, schema), tm.preprocess(pred, schema)
        ok = True
        try:
            cur.execute("EXPLAIN QUERY PLAN " + g)
            cur.execute("EXPLAIN QUERY PLAN " + p)
        except sqlite3.Error:
            ok = False
        verdict = False
        if ok:
            with contextlib.redirect_stdout(open(os.devnull, "w")):
                tg = tm.parseTree(g)
                try:
                    tp = tm.parseTree(p)
                except Exception:
                    tp = None
                try:
                    verdict = bool(tm.compareTrees(tg, tp, copy.deepcopy(schema), db, ALLRULES))
                except Exception:
                    verdict = False
        print(json.dumps({"name": name, "pred": pred, "gold": gold, "script": int(verdict)}))


if __name__ == "__main__":
    main()
