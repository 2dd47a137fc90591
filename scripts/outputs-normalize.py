"""Print an output of nl2sqlbench with what varies between two identical runs removed.

Used by scripts/outputs-identical.sh to diff a base binary's outputs against a new one's.
What is removed, and why it varies:
  - JSON keys holding times (exec_ms and every *_ms, started_at, elapsed*), the build
    (executable_sha256, version, go_version, host) and hashes of files that hold times
    (manifest "files", summary_sha256);
  - in text (stdout, Markdown, HTML): the work directory's path, "judged in 0.12s", UTC times,
    and "base"/"new" in paths;
A JSON document stays JSON (keys sorted), JSON Lines stay one line per record.

    python3 scripts/outputs-normalize.py FILE WORKDIR
"""
import json
import re
import signal
import sys

signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # diff | head closes the pipe early

DROP = {"started_at", "executable_sha256", "version", "go_version", "host", "files",
        "summary_sha256", "sqlite_version", "created_at"}


def scrub(o):
    if isinstance(o, dict):
        return {k: scrub(v) for k, v in o.items()
                if k not in DROP and not k.endswith("_ms") and not k.startswith("elapsed")}
    if isinstance(o, list):
        return [scrub(v) for v in o]
    if isinstance(o, str):
        return text(o)
    return o


WORK = ""


def text(s):
    if WORK:
        s = s.replace(WORK + "/base/", "RUN/").replace(WORK + "/new/", "RUN/")
        s = s.replace(WORK + "/out/base/", "OUT/").replace(WORK + "/out/new/", "OUT/")
        s = s.replace(WORK + "/bin/base", "BIN").replace(WORK + "/bin/new", "BIN")
        s = s.replace(WORK, "WORK")
    s = re.sub(r"judged in [0-9.]+(ms|s|m[0-9.]*s)", "judged in T", s)
    s = re.sub(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z", "TIME", s)  # a run's start, in text
    s = re.sub(r"\b[0-9]+(\.[0-9]+)?(ms|µs|s) (elapsed|wall)", "T", s)
    s = re.sub(r"(took|in) [0-9]+(\.[0-9]+)?(ms|µs|s)\b", r"\1 T", s)
    return s


def main():
    global WORK
    path = sys.argv[1]
    WORK = sys.argv[2] if len(sys.argv) > 2 else ""
    with open(path, "rb") as f:
        raw = f.read()
    try:
        data = raw.decode("utf-8")
    except UnicodeDecodeError:
        sys.stdout.write(repr(raw))
        return
    stripped = data.lstrip()
    if stripped.startswith("{") or stripped.startswith("["):
        try:
            doc = json.loads(data)
            print(json.dumps(scrub(doc), sort_keys=True, indent=1))
            return
        except ValueError:
            pass
        lines = []
        try:
            for line in data.splitlines():
                lines.append(json.dumps(scrub(json.loads(line)), sort_keys=True) if line.strip() else "")
            print("\n".join(lines))
            return
        except ValueError:
            pass
    sys.stdout.write(text(data))


if __name__ == "__main__":
    main()
