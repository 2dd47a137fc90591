# The sandbox side of package taskcode (nl2sqlbench). Run as
#     python3 -I -S -c <this file> <config JSON>
# It isolates itself (namespace mode: hides the file system, drops to nobody), forks a
# worker under resource limits, reads one job (a test case and its arguments) from stdin
# as a JSON line, runs test_case as the official LiveSQLBench evaluator does, and sends
# the outcome back. Every SQL statement, and every helper that compares results, is a
# request to the parent on stdout, answered on stdin: the test reaches no database
# itself. Nothing here is trusted by the parent; see the package doc.

import sys, os, json, re, io, resource, traceback

# Modules a test case may import. They are imported now, before the file system is
# hidden and the privileges dropped, so that `import json` inside a test finds them
# in sys.modules.
import datetime, decimal, math, collections, itertools, functools, time, string
import statistics, random, copy, typing, operator, textwrap, logging, uuid, hashlib
import ctypes, signal
import encodings.idna, unicodedata, stringprep
import _strptime  # datetime.strptime imports it on first use (db_blog_M_149 calls it)
import socket  # so that a test's socket meets the empty network namespace, not an ImportError
from decimal import Decimal, ROUND_HALF_UP

CFG = json.loads(sys.argv[1])
NOBODY = 65534

# --- isolation (before any test code) ---------------------------------------------

def _libc():
    return ctypes.CDLL(None, use_errno=True)


def _mount(libc, src, target, fstype, flags, data):
    r = libc.mount(src.encode(), target.encode(), fstype.encode() if fstype else None,
                   ctypes.c_ulong(flags), data.encode() if data else None)
    if r != 0:
        e = ctypes.get_errno()
        raise OSError(e, "mount %s on %s: %s" % (fstype or src, target, os.strerror(e)))


# Top-level directories left visible: the programs and libraries, and the devices.
# Everything else (/etc, /home, /root, /tmp, /var, /run, /work, ...) is covered by an
# empty tmpfs; /proc is a fresh proc of the new PID namespace.
_KEEP = {"usr", "lib", "lib32", "lib64", "libx32", "bin", "sbin", "dev", "proc"}


def _hide_files():
    libc = _libc()
    MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REC, MS_PRIVATE = 2, 4, 8, 0x4000, 1 << 18
    # No mount made here may reach the parent's namespace.
    _mount(libc, "none", "/", None, MS_REC | MS_PRIVATE, None)
    for name in sorted(os.listdir("/")):
        p = "/" + name
        if name in _KEEP or os.path.islink(p) or not os.path.isdir(p):
            continue
        mode = "1777" if name == "tmp" else "755"
        _mount(libc, "tmpfs", p, "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC,
               "size=%dk,mode=%s" % (CFG["tmpfs_kib"], mode))
    if os.path.isdir("/dev/shm"):
        _mount(libc, "tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=1k,mode=755")
    _mount(libc, "proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)
    os.chdir("/tmp" if os.path.isdir("/tmp") else "/")


def _drop_privileges():
    os.setgroups([])
    os.setgid(NOBODY)
    os.setuid(NOBODY)
    PR_SET_NO_NEW_PRIVS = 38
    _libc().prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    _die_with_parent()


def _die_with_parent():
    # The tool starts us with a parent-death signal (SIGKILL), but the kernel clears it
    # when the credentials change (setuid above) and in a forked child: without setting it
    # again, a tool killed with -9 left its sandbox running forever (the wall clock is the
    # tool's). As PID 1 of the namespace, our death takes every process in it.
    PR_SET_PDEATHSIG = 1
    _libc().prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def _block_network():
    # Basic mode only: weaker than an empty network namespace (ctypes can still make
    # the system call), but no test case of the official sets uses ctypes.
    import socket, _socket

    def refused(*a, **k):
        raise PermissionError(1, "network access is disabled in the test-case sandbox")

    for mod in (socket, _socket):
        for name in ("socket", "socketpair", "create_connection", "create_server", "fromfd", "getaddrinfo"):
            if hasattr(mod, name):
                setattr(mod, name, refused)


def _own_processes():
    uid, n = os.getuid(), 0
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                if os.stat("/proc/" + d).st_uid == uid:
                    n += 1
            except OSError:
                pass
    return n


def _set_limits():
    L = CFG["limits"]
    R = resource
    if L["cpu_s"] > 0:
        R.setrlimit(R.RLIMIT_CPU, (L["cpu_s"], L["cpu_s"] + 1))  # SIGXCPU, then SIGKILL
    if L["as_bytes"] > 0:
        R.setrlimit(R.RLIMIT_AS, (L["as_bytes"], L["as_bytes"]))
    if L["files"] > 0:
        R.setrlimit(R.RLIMIT_NOFILE, (L["files"], L["files"]))
    if L["procs"] > 0:
        # RLIMIT_NPROC counts every process of the user. As nobody in namespace mode
        # that is the sandboxes; in basic mode, allow this many more than there are.
        n = L["procs"] if CFG["mode"] == "namespaces" else _own_processes() + L["procs"]
        R.setrlimit(R.RLIMIT_NPROC, (n, n))
    if L["fsize_bytes"] > 0:
        R.setrlimit(R.RLIMIT_FSIZE, (L["fsize_bytes"], L["fsize_bytes"]))
    R.setrlimit(R.RLIMIT_CORE, (0, 0))


# --- the channel to the parent -----------------------------------------------------

_IN = os.fdopen(os.dup(0), "rb")
_OUT = os.fdopen(os.dup(1), "wb")
_null = os.open(os.devnull, os.O_RDWR)
os.dup2(_null, 0)
os.dup2(2, 1)  # a test writing to fd 1 writes to stderr, not into the protocol
_MAIN = os.getpid()
_forked = False


class SandboxError(Exception):
    """The channel to the parent is gone (a forked process, or a broken protocol)."""


def _call(msg):
    if _forked or os.getpid() != _MAIN:
        raise SandboxError("the database is not reachable from a forked process")
    _OUT.write(json.dumps(msg).encode() + b"\n")
    _OUT.flush()
    line = _IN.readline()
    if not line:
        raise SandboxError("the parent closed the channel")
    return json.loads(line)


# --- psycopg2's values: the parent sends PostgreSQL's text form and the type name --

_TZ = re.compile(r"([+-])(\d\d)(?::?(\d\d))?(?::?(\d\d))?$")


def _tz(s):
    m = _TZ.search(s)
    if not m:
        return s, None
    sign = -1 if m.group(1) == "-" else 1
    off = datetime.timedelta(hours=int(m.group(2)), minutes=int(m.group(3) or 0), seconds=int(m.group(4) or 0))
    return s[:m.start()], datetime.timezone(sign * off)


def _time(s):
    s, tz = _tz(s)
    hms, _, frac = s.partition(".")
    h, m, sec = (int(x) for x in hms.split(":"))
    us = int((frac + "000000")[:6]) if frac else 0
    return datetime.time(h, m, sec, us, tzinfo=tz)


def _date(s):
    if s == "infinity":
        return datetime.date.max
    if s == "-infinity":
        return datetime.date.min
    if s.endswith(" BC"):
        raise ValueError("year %s is out of range" % s)
    y, m, d = s.split("-")
    return datetime.date(int(y), int(m), int(d))


def _timestamp(s):
    if s == "infinity":
        return datetime.datetime.max
    if s == "-infinity":
        return datetime.datetime.min
    d, _, t = s.partition(" ")
    dt, tm = _date(d), _time(t)
    return datetime.datetime.combine(dt, tm.replace(tzinfo=None), tzinfo=tm.tzinfo)


def _interval(s):
    # psycopg2 counts a year as 365 days and a month as 30.
    days, us, f, i = 0, 0, s.split(), 0
    while i < len(f):
        if ":" in f[i]:
            t = f[i]
            neg = t.startswith("-")
            h, m, sec = t.lstrip("+-").split(":")
            whole, _, frac = sec.partition(".")
            v = ((int(h) * 60 + int(m)) * 60 + int(whole)) * 1000000 + (int((frac + "000000")[:6]) if frac else 0)
            us += -v if neg else v
            i += 1
            continue
        n, unit = int(f[i]), f[i + 1].rstrip("s")
        days += n * {"year": 365, "mon": 30, "day": 1}[unit]
        i += 2
    return datetime.timedelta(days=days, microseconds=us)


def _bytea(s):
    return memoryview(bytes.fromhex(s[2:]) if s.startswith("\\x") else s.encode())


_CAST = {
    "int2": int, "int4": int, "int8": int, "oid": int,
    "float4": float, "float8": float, "numeric": Decimal,
    "bool": lambda s: s == "t",
    "bytea": _bytea, "date": _date, "timestamp": _timestamp, "timestamptz": _timestamp,
    "time": _time, "timetz": _time, "interval": _interval,
    "json": json.loads, "jsonb": json.loads,
}
_ARRAY = {"_" + k: k for k in ("int2", "int4", "int8", "oid", "float4", "float8", "numeric", "text", "varchar",
                               "bpchar", "name", "char", "bool", "date", "timestamp", "timestamptz", "time",
                               "timetz", "interval", "bytea", "json", "jsonb")}


def _array(s, cast):
    pos = [0]

    def parse():
        assert s[pos[0]] == "{"
        pos[0] += 1
        out = []
        if s[pos[0]] == "}":
            pos[0] += 1
            return out
        while True:
            c = s[pos[0]]
            if c == "{":
                out.append(parse())
            elif c == '"':
                pos[0] += 1
                b = []
                while s[pos[0]] != '"':
                    if s[pos[0]] == "\\":
                        pos[0] += 1
                    b.append(s[pos[0]])
                    pos[0] += 1
                pos[0] += 1
                out.append(cast("".join(b)))
            else:
                j = pos[0]
                while s[pos[0]] not in ",}":
                    pos[0] += 1
                raw = s[j:pos[0]]
                out.append(None if raw == "NULL" else cast(raw))
            if s[pos[0]] == "}":
                pos[0] += 1
                return out
            pos[0] += 1

    return parse()


def _caster(typ):
    if typ in _CAST:
        return _CAST[typ]
    if typ in _ARRAY:
        elem = _CAST.get(_ARRAY[typ], str)
        return lambda s: _array(s, elem)
    return str


def _native(cell):
    # An SQLite value as the parent typed it.
    if isinstance(cell, dict):
        if "i" in cell:
            return int(cell["i"])
        if "f" in cell:
            return float(cell["f"])
        if "b" in cell:
            return bytes.fromhex(cell["b"])
    return cell


def _rows(res):
    if res["native"]:
        return [tuple(_native(c) for c in row) for row in res["rows"]]
    casts = [_caster(c["type"]) for c in res["columns"]]
    return [tuple(None if c is None else casts[i](c) for i, c in enumerate(row)) for row in res["rows"]]


# --- psycopg2's exceptions and its quoting of parameters ---------------------------

class Error(Exception):
    pass


class InterfaceError(Error):
    pass


class DatabaseError(Error):
    pgcode = None


class DataError(DatabaseError):
    pass


class OperationalError(DatabaseError):
    pass


class ProgrammingError(DatabaseError):
    pass


class QueryCanceled(OperationalError):
    pass


def _quote(v):
    if v is None:
        return "NULL"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        s = str(v)
        return " " + s if s.startswith("-") else s
    if isinstance(v, float):
        if v != v:
            return "'NaN'::float"
        if v in (float("inf"), float("-inf")):
            return "'Infinity'::float" if v > 0 else "'-Infinity'::float"
        s = repr(v)
        return " " + s if s.startswith("-") else s
    if isinstance(v, Decimal):
        if v.is_nan():
            return "'NaN'::numeric"
        s = str(v)
        return " " + s if s.startswith("-") else s
    if isinstance(v, str):
        if "\x00" in v:
            raise ValueError("A string literal cannot contain NUL (0x00) characters.")
        return "'" + v.replace("'", "''") + "'"
    if isinstance(v, (bytes, bytearray, memoryview)):
        return "'\\x" + bytes(v).hex() + "'::bytea"
    if isinstance(v, datetime.datetime):
        return "'" + v.isoformat() + ("'::timestamptz" if v.tzinfo else "'::timestamp")
    if isinstance(v, datetime.date):
        return "'" + v.isoformat() + "'::date"
    if isinstance(v, datetime.time):
        return "'" + v.isoformat() + ("'::timetz" if v.tzinfo else "'::time")
    if isinstance(v, datetime.timedelta):
        return "'%d days %d.%06d seconds'::interval" % (v.days, v.seconds, v.microseconds)
    if isinstance(v, list):
        return "'{}'" if not v else "ARRAY[" + ",".join(_quote(x) for x in v) + "]"
    if isinstance(v, tuple):
        return "(" + ", ".join(_quote(x) for x in v) + ")"
    raise ProgrammingError("can't adapt type '%s'" % type(v).__name__)


def _mogrify(query, params):
    if isinstance(params, dict):
        return query % {k: _quote(v) for k, v in params.items()}
    return query % tuple(_quote(v) for v in params)


def _exec(query, keep):
    """One statement (or several in one string) on the task's database copy."""
    if isinstance(query, bytes):
        query = query.decode()
    if not isinstance(query, str):
        raise TypeError("argument 1 must be a string or unicode object: got %s instead" % type(query).__name__)
    r = _call({"op": "exec", "sql": query, "keep": keep})
    if "error" in r:
        e = r["error"]
        cls = {"QueryCanceled": QueryCanceled, "OperationalError": OperationalError}.get(e["class"], ProgrammingError if e["class"] == "ProgrammingError" else DatabaseError)
        err = cls(e["message"])
        err.pgcode = e.get("code")
        raise err
    return r["result"]


class _Cursor:
    arraysize = 1

    def __init__(self, conn):
        self.connection, self.closed = conn, False
        self._rows, self._pos, self.description, self.rowcount = None, 0, None, -1

    def execute(self, query, vars=None):
        if self.closed:
            raise InterfaceError("cursor already closed")
        res = _exec(query if vars is None else _mogrify(query, vars), 0)
        self._rows, self._pos = (_rows(res) if res["has_rows"] else None), 0
        self.description = tuple((c["name"], c.get("oid"), None, None, None, None, None) for c in res["columns"]) or None
        self.rowcount = res["rowcount"]

    def executemany(self, query, vars_list):
        n = 0
        for v in vars_list:
            self.execute(query, v)
            n += max(self.rowcount, 0)
        self.rowcount, self._rows = n, None

    def mogrify(self, query, vars=None):
        return (query if vars is None else _mogrify(query, vars)).encode()

    def _need(self):
        if self.closed:
            raise InterfaceError("cursor already closed")
        if self._rows is None:
            raise ProgrammingError("no results to fetch")

    def fetchone(self):
        self._need()
        if self._pos >= len(self._rows):
            return None
        self._pos += 1
        return self._rows[self._pos - 1]

    def fetchmany(self, size=None):
        self._need()
        n = self.arraysize if size is None else size
        out = self._rows[self._pos:self._pos + n]
        self._pos += len(out)
        return out

    def fetchall(self):
        self._need()
        out = self._rows[self._pos:]
        self._pos = len(self._rows)
        return out

    def __iter__(self):
        while True:
            r = self.fetchone()
            if r is None:
                return
            yield r

    def close(self):
        self.closed = True

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


class _Conn:
    """The conn a test case receives: a psycopg2 connection in name. Every statement
    is committed when it runs (commit() and rollback() do nothing; see the package doc)."""

    autocommit, closed, dsn = False, 0, ""

    def cursor(self, *a, **k):
        return _Cursor(self)

    def commit(self):
        pass

    def rollback(self):
        pass

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


CONN = _Conn()

# --- the official helpers (evaluation/src/db_utils.py and test_utils.py) -------------


def perform_query_on_postgresql_databases(query, db_name, conn=None):
    res = _exec(query, 10000)  # fetchmany(10001) cut to 10000
    return (_rows(res) if res["has_rows"] else None), (conn if conn is not None else CONN)


def execute_queries(queries, db_name, conn, logger=None, section_title=""):
    query_result, execution_error, timeout_error = None, False, False
    if isinstance(queries, str):
        queries = [queries]
    for i, query in enumerate(queries):
        try:
            query_result, conn = perform_query_on_postgresql_databases(query, db_name, conn=conn)
        except QueryCanceled:
            timeout_error = True
            break
        except Exception:
            execution_error = True
            break
    return query_result, execution_error, timeout_error


def _strs(sql_list, err):
    out = list(sql_list)
    for s in out:
        if not isinstance(s, str):
            raise err(s)
    return out


def _clean(fn, sql_list, err):
    return _call({"op": "clean", "fn": fn, "sqls": _strs(sql_list, err)})["value"]


def _re_type(s):
    return TypeError("expected string or bytes-like object, got '%s'" % type(s).__name__)


def _attr(name):
    return lambda s: AttributeError("'%s' object has no attribute '%s'" % (type(s).__name__, name))


def remove_comments(sql_list):
    return _clean("remove_comments", sql_list, _re_type)


def remove_distinct(sql_list):
    return _clean("remove_distinct", sql_list, _attr("split"))


def remove_round(sql_list):
    return _clean("remove_round", sql_list, _re_type)


def check_sql_function_usage(sqls, required_keywords):
    if not sqls:
        return 0
    return _call({"op": "check_usage", "sqls": _strs(sqls, _attr("lower")),
                  "keywords": _strs(required_keywords, _attr("lower"))})["value"]


_RAISE = {"TypeError": TypeError, "decimal.InvalidOperation": decimal.InvalidOperation}


def ex_base(pred_sqls, sol_sqls, db_name, conn, conditions=None):
    # The parent runs both lists and compares them with the one Go ex_base.
    if not pred_sqls or not sol_sqls:
        return 0
    order = bool(conditions is not None and conditions.get("order", False))

    def sqls(x):
        return [x] if isinstance(x, str) else [s if isinstance(s, str) else None for s in x]

    r = _call({"op": "ex_base", "pred": sqls(pred_sqls), "sol": sqls(sol_sqls), "order": order})
    if "raise" in r:
        raise _RAISE.get(r["raise"]["class"], RuntimeError)(r["raise"]["message"])
    return r["value"]


def _round_recursive(item, places):
    q = Decimal(1).scaleb(-places)
    if isinstance(item, Decimal):
        return item.quantize(q, rounding=ROUND_HALF_UP)
    if isinstance(item, float):
        return round(item, places)
    if isinstance(item, (list, tuple)):
        return type(item)(_round_recursive(x, places) for x in item)
    if isinstance(item, dict):
        return {k: _round_recursive(v, places) for k, v in item.items()}
    return item


def preprocess_results(results, decimal_places=2):
    out = []
    for result in results:
        row = []
        for item in result:
            if isinstance(item, (datetime.date, datetime.datetime)):
                row.append(item.strftime("%Y-%m-%d"))
                continue
            p = _round_recursive(item, decimal_places)
            row.append(json.dumps(p, sort_keys=True) if isinstance(p, (dict, list)) else p)
        out.append(tuple(row))
    return out


def performance_compare_by_qep(old_sqls, sol_sqls, db_name, conn):
    # As the official, but its BEGIN/ROLLBACK cannot undo here: each statement commits.
    if not old_sqls or not sol_sqls:
        return 0

    def cost(sqls):
        total = 0.0
        for sql in sqls:
            u = sql.strip().upper()
            if not u.startswith(("SELECT", "INSERT", "UPDATE", "DELETE")):
                try:
                    perform_query_on_postgresql_databases(sql, db_name, conn=conn)
                except Exception:
                    pass
                continue
            try:
                rows, _ = perform_query_on_postgresql_databases("EXPLAIN (FORMAT JSON) " + sql, db_name, conn=conn)
                if not rows:
                    continue
                plan = rows[0][0]
                if isinstance(plan, str):
                    plan = json.loads(plan)
                if isinstance(plan, list) and plan:
                    total += float(plan[0].get("Plan", {}).get("Total Cost", 0.0))
            except Exception:
                pass
        return total

    old, new = cost(old_sqls), cost(sol_sqls)
    return 1 if new < old else 0


# --- one test case ---------------------------------------------------------------

_CAP = 16384


class _CappedIO(io.StringIO):
    def write(self, s):
        if self.tell() < _CAP:
            super().write(s[:_CAP - self.tell()])
        return len(s)


def _done(status, exc=None, compile_error=False, out=""):
    msg = {"op": "done", "status": status, "output": out, "compile": compile_error}
    if exc is not None:
        cls = type(exc)
        msg["class"] = cls.__name__ if cls.__module__ in ("builtins", "__main__") else cls.__module__ + "." + cls.__name__
        msg["message"] = str(exc)[:4096]
        msg["traceback"] = "".join(traceback.format_exception(cls, exc, exc.__traceback__, limit=-8))[-4096:]
    _OUT.write(json.dumps(msg).encode() + b"\n")
    _OUT.flush()


def _forked_child():
    global _forked
    _forked = True


def _run(job):
    res = job.get("pred_query_result")
    global_env = {
        "perform_query_on_postgresql_databases": perform_query_on_postgresql_databases,
        "execute_queries": execute_queries,
        "ex_base": ex_base,
        "performance_compare_by_qep": performance_compare_by_qep,
        "check_sql_function_usage": check_sql_function_usage,
        "remove_distinct": remove_distinct,
        "remove_comments": remove_comments,
        "remove_round": remove_round,
        "preprocess_results": preprocess_results,
        "pred_query_result": (_rows(res) if res and res["has_rows"] else None),
    }
    # As the official run_test_case: separate globals and locals, so a name defined at
    # the top level of the test code (even the `date` imported first) is not visible
    # inside test_case.
    local_env = {"conn": CONN, "pred_sqls": job["pred_sqls"], "sol_sqls": job["sol_sqls"],
                 "db_name": job["db_name"], "kwargs": job["kwargs"] or {}}
    src = ("from datetime import date\n" + job["code"] +
           "\n__test_case_result__ = test_case(pred_sqls, sol_sqls, db_name, conn, **kwargs)")
    out = _CappedIO()
    sys.stdout = out
    try:
        code = compile(src, "<test_case>", "exec")
    except SyntaxError as e:
        sys.stdout = sys.__stdout__
        _done("error", e, compile_error=True)
        return
    try:
        exec(code, global_env, local_env)
        status, exc = "passed", None
    except AssertionError as e:
        status, exc = "assertion", e
    except BaseException as e:  # SystemExit and MemoryError too: the test failed
        status, exc = "error", e
    sys.stdout = sys.__stdout__
    if _forked or os.getpid() != _MAIN:
        # A process the test forked has no say. It waits to be killed with the sandbox
        # rather than exit, so that a fork bomb meets RLIMIT_NPROC at once instead of
        # churning below it.
        while True:
            signal.pause()
    _done(status, exc, out=out.getvalue())


def main():
    global _MAIN
    if CFG["mode"] == "namespaces":
        _hide_files()
        _drop_privileges()
    else:
        _block_network()
    if CFG.get("probe"):
        os._exit(0)
    pid = os.fork()
    if pid:
        # The reaper: PID 1 of the sandbox's PID namespace in namespace mode (when it
        # exits, the kernel kills every process left in it). Exits as the worker did.
        _IN.close()
        _OUT.close()
        while True:
            try:
                w, status = os.waitpid(-1, 0)
            except ChildProcessError:
                os._exit(125)
            if w == pid:
                os._exit(128 + os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status))
    _MAIN = os.getpid()
    _die_with_parent()  # the worker dies with the reaper (in basic mode, not in a namespace)
    _set_limits()
    os.register_at_fork(after_in_child=_forked_child)
    job = json.loads(_IN.readline())
    _run(job)
    os._exit(0)


main()
