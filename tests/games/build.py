"""Builds the test-only games (tests/games/<name>/) for the tests: each game's C (``c/*.c``) and its
Cython binding (``<name>/_core.pyx``) are compiled into an extension module placed beside the
binding (``<name>/_core.<suffix>``, as ``build_ext --inplace`` would), over the C core's common
sources and the shipped declarations of ``threes`` (``python/threes/*.pxd``). Nothing here is
installed or shipped in a wheel.

A build is redone only when one of its inputs changed (their SHA-256 is kept beside the module),
under a file lock, so that pytest-xdist's workers build once between them. It needs Cython (the
``test`` extra) and the C compiler Python was built with.

    python tests/games/build.py            # builds every test game, prints where
"""
from __future__ import annotations

import fcntl
import hashlib
import os
import pathlib
import shlex
import subprocess
import sys
import sysconfig
from typing import List

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
CORE = ROOT / "src" / "threes_core"
#: The C core's shared sources a game's C links against (rng, errors, returns).
COMMON = ("common/rng.c", "common/error.c", "common/returns.c")


def _inputs(game: pathlib.Path) -> List[pathlib.Path]:
    files = sorted((game / "c").glob("*.[ch]")) + [game / game.name / "_core.pyx"]
    files += sorted((ROOT / "python" / "threes").glob("*.pxd")) + [CORE / c for c in COMMON]
    files += sorted((CORE / "common").glob("*.h")) + [pathlib.Path(__file__)]
    return files


def _digest(files: List[pathlib.Path]) -> str:
    import numpy

    h = hashlib.sha256()
    # the interpreter and NumPy it is built for, then every input file
    h.update(f"{sys.version}\0{sysconfig.get_config_var('EXT_SUFFIX')}\0{numpy.__version__}\0".encode())
    for f in files:
        h.update(str(f.relative_to(ROOT)).encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def _run(cmd: List[str]) -> None:
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"building a test game failed: {shlex.join(cmd)}\n{done.stdout}\n{done.stderr}")


def build(name: str) -> pathlib.Path:
    """Builds tests/games/<name> (when its inputs changed) and returns the folder to put on sys.path."""
    import numpy

    game = HERE / name
    pkg = game / name
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    target = pkg / f"_core{suffix}"
    stamp = pkg / "_core.sha256"
    digest = _digest(_inputs(game))
    with open(game / ".build.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if target.exists() and stamp.exists() and stamp.read_text() == digest:
            return game
        c_file = pkg / "_core.c"
        _run([sys.executable, "-m", "cython", "-3", "--module-name", f"{name}._core", "-I", str(ROOT / "python"),
              "-o", str(c_file), str(pkg / "_core.pyx")])
        cc = shlex.split(sysconfig.get_config_var("CC") or "cc")
        flags = ["-shared", "-fPIC", "-O2", "-std=c11", "-DNPY_NO_DEPRECATED_API=NPY_1_7_API_VERSION",
                 "-I", sysconfig.get_paths()["include"], "-I", numpy.get_include(), "-I", str(CORE),
                 "-I", str(game / "c")]
        if sys.platform == "darwin":
            flags += ["-undefined", "dynamic_lookup"]
        sources = [str(c_file)] + [str(p) for p in sorted((game / "c").glob("*.c"))] + [str(CORE / c) for c in COMMON]
        tmp = target.with_name(target.name + f".{os.getpid()}.tmp")
        _run(cc + flags + sources + ["-o", str(tmp), "-lm"])
        os.replace(tmp, target)  # a process that loaded the old module keeps it
        stamp.write_text(digest)
        c_file.unlink()
    return game


def add(name: str) -> None:
    """Builds tests/games/<name> and puts its package on sys.path."""
    folder = str(build(name))
    if folder not in sys.path:
        sys.path.insert(0, folder)


if __name__ == "__main__":
    for d in sorted(p for p in HERE.iterdir() if (p / p.name / "_core.pyx").exists()):
        print(build(d.name))
