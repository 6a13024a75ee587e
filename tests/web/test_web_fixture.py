"""The web tests' own fixture: a TestClient test that fails with websockets still open ends, and
the suite goes on (before this was fixed, ``TestClient.__exit__`` waited forever for the open
sessions' tasks, so one failing web test stalled the whole run)."""
from __future__ import annotations

import pathlib
import subprocess
import sys
import textwrap

HERE = pathlib.Path(__file__).resolve().parent

FAILING = textwrap.dedent(f"""
    import sys
    sys.path.insert(0, {str(HERE)!r})
    from conftest import create_table, make_client, recv, send  # noqa: F401 (make_client: the fixture)

    def test_fails_with_two_sockets_open(make_client):
        c = make_client()
        t = create_table(c)
        for seat in (0, 1):
            ws = c.websocket_connect("/ws")
            ws.__enter__()
            send(ws, {{"type": "join", "table": t["table"], "seat": seat, "secret": t["secrets"][seat]}})
            assert recv(ws)["type"] == "welcome"
        assert False, "a deliberate failure"

    def test_after_it(make_client):
        assert create_table(make_client())["table"]
""")


def test_a_failing_test_with_open_websockets_does_not_stall_the_suite(tmp_path):
    (tmp_path / "test_failing.py").write_text(FAILING)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
                           "--rootdir", str(tmp_path), str(tmp_path / "test_failing.py")],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert "1 failed, 1 passed" in out and "a deliberate failure" in out, out
