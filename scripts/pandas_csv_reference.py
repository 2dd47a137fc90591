#!/usr/bin/env python3
"""Regenerate internal/pandascsv/testdata/pandas_reference.json: how pandas.read_csv (with
its defaults) reads a corpus of CSV texts, as the Go reader must. Run with the pandas that
Spider 2.0's verdicts were produced with (Debian bookworm's python3-pandas 1.5.3):

    /usr/bin/python3 scripts/pandas_csv_reference.py > internal/pandascsv/testdata/pandas_reference.json
"""
import io
import json
import math
import random

import pandas as pd

CORPUS = [
    "a,b\nTrue,1\nFalse,\n", "a\nTrue\n\nNA\n", "a\n 1\n2 \n", "a\n 1.5\n2 \n", "a\n1\nx\n",
    "a\n9223372036854775808\n1\n", "a\n-9223372036854775809\n1\n", "a\n99999999999999999999999\n",
    "a\ninf\n-Infinity\n+inf\nINF\n", "a\nnan\n1\n", "a,b\n1,2,3\n4,5,6\n", "a,b\n1\n", "a\n \n1\n",
    "a,b\n \n1,2\n", 'a\n""\n1\n', "a\n1.\n.5\n+3\n1e5\n1E-2\n", "a\n0x10\n", "a\n1_000\n",
    "a\ntrue\nFALSE\n", "a\nTrue\n1\n", "\ufeffa,b\n1,2\n", "a,a\n1,2\n", "a\n1\n\n\n", "a,b\n1,\n,\n",
    "a\n1.0\n2\n", "a\n-0\n", "a\n 1 \n", "a\n\t1\n", "a\n1d5\n", "a,b\n1,True\n",
    "a,b\n1,9223372036854775808\n", "a,b\n1.5,x\n", "a\n1e400\n", "a\n True\n", "a\nTrue \n",
    "a\n NA\n", 'a\n"NA"\n', "a,b\n1,2\n3,4,5\n", "a,b\n1,2,3\n4,5\n", "", "\n\n", "a,b\n",
    'a\n"x\ny"\n', "a\r\n1\r\n", "a\n1\r\n2", "a\n-\n", "a\n1e\n", "a\n 1.5e3 \n", "a\n1 2\n",
    "a\n+1.5\n", "a\n.\n", "a\n-.5\n", "a\n1e+05\n", "a\nNaN\n-inf\n", "a\n-nan\n", "a\nInfinity\n",
    "a\ninfinity\n", "a\nnan\nx\n", 'a,b\n"1",x\n', "a,,c\n1,2,3\n", "a\n0001\n", "a\n1.0e-5\n",
    "a\n3\n4.5\nTrue\n", "x\n1\n,\n", "a\nNAN\n", "a\n inf\n", "a\n+Infinity\n-INF\n",
    "a\n99999999999999999999999\n1.5\n", "a\n1.5\n99999999999999999999999\n",
    "a\n18446744073709551615\n", "a\n18446744073709551616\n", "a\n18446744073709551615\n-1\n",
    "a\n9223372036854775808\nNA\n", "a\nNA\n9223372036854775808\n", "a\n9223372036854775808\nNA\nx\n",
    "a\n99999999999999999999\nNA\n", "a\nNA\n-9223372036854775809\n", "a\n9223372036854775808\n1.5\nNA\n",
    "a\nTrue\nFalse\n", "a\n1\nTrue\n", "a\n1.5\nTrue\n", "a,b\nx,1\n", "a,b\n1.5,2\n", "a\n0.1e1\n",
    "a\n1,000\n", "a;b\n1;2\n", "a\n'x'\n", 'a\nx"y\n', 'a\n"x"y\n', 'a,b\n"x" ,1\n', "a\n1e-400\n",
    "a\n1e308\n", "a\n1.7976931348623157e308\n", "a\n12345678901234567890.5\n", "a,b\n1\n1,2\n",
    "a,b\n1\n1,2,3\n", "a,b\n1,2,3\n1,2,3,4\n", "a,b\n1,2,3,4\n1,2,3\n", "a,b\n1,2,3,4\n1\n",
    "a\n x\n", "a\n  \t\n x\n", 'a\n1\n ""\n', 'a\n""""\n', "a\nx\r2\n", "a,b\n,\n", "  \na\n1\n",
    'a\n"1\n', "a,b\n1,2,\n", "a,b\n1,2\n3,4,\n", "a\nNone\n", "a\nn/a\n#N/A\n<NA>\n", "a\n1\nnull\n",
    "a,b,c\n1,2.5,x\n", "a,b\n1,\n", "a\n1e5\n2\n", "a,b\nTrue,1.5\n", "a\n-1.5e-3\n", "a\n1,\n",
    "a\n\"a,b\",c\n", "a,b\n\"q\"\"q\",1\n", "a\n12:30\n", "a\n2020-01-01\n", "a\n1.5\n-\n",
]


def cell(x):
    if isinstance(x, bool):
        return ["bool", x]
    if isinstance(x, int):
        return ["int", str(x)]
    if isinstance(x, float):
        if math.isnan(x):
            return ["nan"]
        return ["float", repr(x)]
    if isinstance(x, str):
        return ["str", x]
    return ["other", repr(x)]


def read(text):
    try:
        df = pd.read_csv(io.StringIO(text))
    except Exception as e:  # the Go reader must fail too
        return {"csv": text, "error": type(e).__name__}
    return {
        "csv": text,
        "dtypes": [str(d) for d in df.dtypes],
        # each column alone, as its own dtype gives it to Python
        "columns": [[cell(x) for x in df.iloc[:, [i]].T.values.tolist()[0]] for i in range(df.shape[1])],
        "transposed": [[cell(x) for x in v] for v in df.T.values.tolist()],
    }


def main():
    random.seed(19)
    floats = []
    for _ in range(3000):
        k = random.randint(1, 3)
        if k == 1:
            floats.append(repr(random.uniform(-1e6, 1e6)))
        elif k == 2:
            floats.append("%.*f" % (random.randint(0, 20), random.uniform(-1000, 1000)))
        else:
            floats.append("%d.%d" % (random.randint(0, 10**9), random.randint(0, 10**random.randint(1, 25))))
    out = [read(t) for t in CORPUS] + [read("a\n" + "\n".join(floats) + "\n")]
    json.dump(out, __import__("sys").stdout, indent=0, ensure_ascii=False)


main()
