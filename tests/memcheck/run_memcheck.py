#!/usr/bin/env python3
"""Runs tests/memcheck/workload.py under valgrind memcheck (issue 4, memory).

Passes when
  * no memcheck error (invalid read or write, use of uninitialised memory,
    bad free) has a frame in our code: the extensions (each game's _core, the shared _engine with its
    GameStateBase and freed-state lists, _vector) and the C
    engine (errors inside CPython or the dynamic loader alone are theirs, and
    are listed but not counted), and
  * the bytes "definitely lost" do not grow with the number of games: the
    workload is run with SMALL and LARGE game counts and the two leak totals
    must be equal (what CPython itself leaks at exit is the same in both).
Needs valgrind (Debian: apt-get install valgrind). Usage: run_memcheck.py [SMALL LARGE]
"""
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OURS = re.compile(r"_(?:core|engine|vector)\.cpython|threes_core/|/_(?:core|engine|vector)\.c|_(?:core|engine|vector)\.pyx|"
                  r"\b(?:th|sh|tt|threes)_[a-z0-9_]+|__pyx_")


def run(games):
    env = dict(os.environ, PYTHONMALLOC="malloc")
    cmd = ["valgrind", "--tool=memcheck", "--leak-check=full", "--show-leak-kinds=definite", "--num-callers=40",
           sys.executable, os.path.join(HERE, "workload.py"), str(games)]
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=3600)
    if p.returncode != 0 or "workload done" not in p.stdout:
        print(p.stdout[-2000:], p.stderr[-5000:])
        raise SystemExit(f"the workload failed under valgrind (exit {p.returncode})")
    blocks, cur = [], []
    for line in p.stderr.splitlines():
        body = re.sub(r"^==\d+== ?", "", line)
        if not body.strip():
            if cur:
                blocks.append(cur)
            cur = []
        else:
            cur.append(body)
    if cur:
        blocks.append(cur)
    kinds = ("Invalid read", "Invalid write", "Conditional jump", "Use of uninitialised", "Invalid free",
             "Mismatched free", "Syscall param", "Source and destination overlap")
    errors = [b for b in blocks if b[0].startswith(kinds)]
    ours = [b for b in errors if any(OURS.search(x) for x in b)]
    lost = re.search(r"definitely lost: ([\d,]+) bytes in ([\d,]+) blocks", p.stderr)
    definite = int(lost.group(1).replace(",", "")) if lost else 0
    leak_ours = [b for b in blocks if "definitely lost" in b[0] and any(OURS.search(x) for x in b)]
    return errors, ours, definite, leak_ours


def main():
    if not shutil.which("valgrind"):
        raise SystemExit("valgrind is not installed (apt-get install valgrind)")
    small, large = (int(sys.argv[1]), int(sys.argv[2])) if len(sys.argv) > 2 else (1, 6)
    ok = True
    totals = []
    for games in (small, large):
        errors, ours, definite, leak_ours = run(games)
        totals.append(definite)
        print(f"{games} games per preset: {len(errors)} memcheck errors in all (CPython's and the loader's "
              f"included), {len(ours)} with a frame in threes; definitely lost {definite} bytes, "
              f"{len(leak_ours)} leak records in threes")
        for b in ours + leak_ours:
            print("\n".join(b[:25]))
            ok = False
    if totals[0] != totals[1]:
        print(f"definitely-lost bytes grew with the games: {totals[0]} -> {totals[1]}")
        ok = False
    print("memcheck:", "1 passed, 0 failed" if ok else "0 passed, 1 failed")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
