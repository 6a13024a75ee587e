"""Helpers shared by the two boundary fuzzers (tests/test_fuzz.py and
tests/fuzz/fuzz_boundary.py). Standard library only: it must not import
threes, which the atheris target imports under instrumentation."""
import contextlib
import os
import traceback


@contextlib.contextmanager
def memory_cap(extra=256 << 20):
    """Caps the address space while a mutated pickle loads: a flipped memo
    index makes CPython's unpickler allocate (and zero) gigabytes, which must
    end as a MemoryError of the pickle machinery, not take the machine down.
    Linux only (/proc and resource); elsewhere it does nothing."""
    try:
        import resource

        with open("/proc/self/statm") as f:
            vm = int(f.read().split()[0]) * resource.getpagesize()
    except (ImportError, OSError, ValueError):
        yield
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = vm + extra if hard == resource.RLIM_INFINITY else min(vm + extra, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def raised_inside(exc, package_dir):
    """Whether a frame of the exception's traceback lies in `package_dir` (the
    threes package) or in its extension module."""
    for frame in traceback.extract_tb(exc.__traceback__):
        path = os.path.abspath(frame.filename)
        if path.startswith(package_dir + os.sep) or "/_core." in frame.filename.replace(os.sep, "/"):
            return True
    return False
