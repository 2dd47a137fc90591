#!/usr/bin/env python3
"""Writes one platform wheel of the nl2sqlbench Python package, with the binary inside.

    python3 scripts/wheel.py --binary PATH --arch x86_64|aarch64 --version V --out dist/

Called by scripts/build-wheel.sh. No pip, setuptools or network: a wheel is a zip with
METADATA, WHEEL, entry_points.txt and RECORD (PEP 427, 491), written here with zipfile.
The wheel is reproducible: entries in sorted order, every date SOURCE_DATE_EPOCH, fixed
modes. Its platform tag names the newest glibc symbol version the binary needs (a cgo
binary links glibc), so pip never installs it where it cannot run.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import os
import re
import sys
import time
import zipfile
from pathlib import Path
from typing import Dict, List, Tuple

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "python" / "nl2sqlbench"


def glibc_tag(binary: bytes, arch: str) -> str:
    """manylinux_2_N_<arch>, N the newest GLIBC_2.N the binary's dynamic symbols need
    (at least 17, the oldest tag pip knows as manylinux2014)."""
    versions = [int(m) for m in re.findall(rb"GLIBC_2\.(\d+)", binary)]
    if not versions:
        sys.exit("wheel.py: the binary names no GLIBC symbol version: not a glibc Linux binary?")
    return f"manylinux_2_{max(17, max(versions))}_{arch}"


def elf_machine(binary: bytes) -> str:
    """The ELF machine of the binary: x86_64 or aarch64 (refusing a mixed-up binary)."""
    if binary[:4] != b"\x7fELF":
        sys.exit("wheel.py: the binary is not an ELF file")
    machine = int.from_bytes(binary[18:20], "little")
    return {62: "x86_64", 183: "aarch64"}.get(machine, f"machine {machine}")


def record_hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def metadata(version: str) -> str:
    readme = (ROOT / "python" / "README.md").read_text(encoding="utf-8")
    return (
        "Metadata-Version: 2.1\n"
        "Name: nl2sqlbench\n"
        f"Version: {version}\n"
        "Summary: Benchmark NL2SQL systems (BIRD, Spider, Spider 2.0): execution accuracy, ESM, ETM, Soft-F1, VES and more\n"
        "License: Apache-2.0\n"
        "Requires-Python: >=3.8\n"
        "Classifier: License :: OSI Approved :: Apache Software License\n"
        "Classifier: Operating System :: POSIX :: Linux\n"
        "Classifier: Programming Language :: Python :: 3\n"
        "Classifier: Topic :: Database\n"
        "Provides-Extra: pandas\n"
        "Requires-Dist: pandas; extra == \"pandas\"\n"
        "Description-Content-Type: text/markdown\n"
        "\n" + readme
    )


def build(binary_path: Path, arch: str, version: str, out: Path) -> Path:
    binary = binary_path.read_bytes()
    if elf_machine(binary) != arch:
        sys.exit(f"wheel.py: {binary_path} is an {elf_machine(binary)} binary, not {arch}")
    tag = f"py3-none-{glibc_tag(binary, arch)}"
    dist_info = f"nl2sqlbench-{version}.dist-info"
    files: List[Tuple[str, bytes, int]] = []  # (path in the wheel, data, mode)
    for p in sorted(PKG.rglob("*")):
        if p.is_file() and "__pycache__" not in p.parts and p.suffix in (".py", ".typed"):
            rel = "nl2sqlbench/" + p.relative_to(PKG).as_posix()
            data = p.read_bytes()
            if rel == "nl2sqlbench/_version.py":
                data = f'"""The package\'s version, written by scripts/build-wheel.sh."""\n\n__version__ = "{version}"\n'.encode()
            files.append((rel, data, 0o644))
    files.append(("nl2sqlbench/bin/nl2sqlbench", binary, 0o755))
    meta: Dict[str, bytes] = {
        "METADATA": metadata(version).encode(),
        "WHEEL": f"Wheel-Version: 1.0\nGenerator: nl2sqlbench scripts/wheel.py\nRoot-Is-Purelib: false\nTag: {tag}\n".encode(),
        "entry_points.txt": b"[console_scripts]\nnl2sqlbench = nl2sqlbench.__main__:main\n",
        "LICENSE": (ROOT / "LICENSE").read_bytes(),
        "top_level.txt": b"nl2sqlbench\n",
    }
    for name in sorted(meta):
        files.append((f"{dist_info}/{name}", meta[name], 0o644))
    record = "".join(f"{path},{record_hash(data)},{len(data)}\n" for path, data, _ in files)
    record += f"{dist_info}/RECORD,,\n"
    files.append((f"{dist_info}/RECORD", record.encode(), 0o644))

    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "315532800"))
    date = time.gmtime(max(epoch, 315532800))[:6]  # zip dates start in 1980
    out.mkdir(parents=True, exist_ok=True)
    wheel = out / f"nl2sqlbench-{version}-{tag}.whl"
    tmp = wheel.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for path, data, mode in files:  # package files first, dist-info last, RECORD at the end
            info = zipfile.ZipInfo(path, date_time=date)
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix, so the modes are read
            z.writestr(info, data, compresslevel=9)
    tmp.replace(wheel)
    return wheel


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", required=True, type=Path)
    ap.add_argument("--arch", required=True, choices=["x86_64", "aarch64"])
    ap.add_argument("--version", required=True)
    ap.add_argument("--out", required=True, type=Path)
    a = ap.parse_args()
    if not re.fullmatch(r"\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?", a.version):
        sys.exit(f"wheel.py: version {a.version!r} is not a PEP 440 release version")
    print(build(a.binary, a.arch, a.version, a.out))


if __name__ == "__main__":
    main()
