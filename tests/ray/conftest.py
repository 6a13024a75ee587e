"""Ray for the tests of issue 16: a local runtime shared by a module's tests
(``ray_local``) and a real two-node cluster on the loopback address
(``ray_cluster``: a head and a worker started with ``ray start`` as separate
processes, one CPU each, stopped at the end).

Under pytest-xdist one worker runs every test here, one after another (the
scheduler in the root conftest.py): ``ray stop`` stops every Ray process of the machine, and
two Ray runtimes at once would share the machine's two cores."""
import os
import shutil
import signal
import socket
import subprocess
import sys
import time

import pytest

# Ray >= 2.52 starts clusters with token authentication: the nodes, the
# drivers (this process, read when ray is imported, and the CLI processes
# the tests start) all use the token in ~/.ray/auth_token
os.environ["RAY_AUTH_MODE"] = "token"


def ray_cli() -> str:
    """The ``ray`` command of this Python's environment."""
    exe = os.path.join(os.path.dirname(sys.executable), "ray")
    return exe if os.path.exists(exe) else shutil.which("ray")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def chunk_pids():
    """PIDs of the Ray workers running a chunk (process title ray::_chunk)."""
    pids = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                with open(f"/proc/{d}/cmdline", "rb") as f:
                    if f.read().startswith(b"ray::_chunk"):
                        pids.append(int(d))
            except OSError:
                pass
    return pids


def ray_stop():
    subprocess.run([ray_cli(), "stop", "--force"], capture_output=True, timeout=120)


@pytest.fixture(scope="module")
def ray_local():
    import ray

    ray_stop()  # nothing left from another module
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level="WARNING")
    yield ray
    ray.shutdown()
    ray_stop()


@pytest.fixture(scope="module")
def ray_cluster():
    """The address of a head and a worker node, each a `ray start` process
    with one CPU; this process connected to them as a driver."""
    import ray

    ray_stop()
    subprocess.run([ray_cli(), "get-auth-token", "--generate"], check=True, capture_output=True, timeout=60)
    port = free_port()
    address = f"127.0.0.1:{port}"
    common = ["--num-cpus=1", "--disable-usage-stats"]
    env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0")
    try:
        subprocess.run([ray_cli(), "start", "--head", f"--port={port}", "--node-ip-address=127.0.0.1",
                        "--include-dashboard=false", *common], check=True, capture_output=True, timeout=180, env=env)
        subprocess.run([ray_cli(), "start", f"--address={address}", "--node-ip-address=127.0.0.1", *common],
                       check=True, capture_output=True, timeout=180, env=env)
        ray.init(address=address, logging_level="WARNING")
        deadline = time.monotonic() + 60
        while len([n for n in ray.nodes() if n["Alive"]]) < 2 or ray.cluster_resources().get("CPU", 0) < 2:
            assert time.monotonic() < deadline, "the worker node did not join"
            time.sleep(0.5)
        yield address
    finally:
        ray.shutdown()
        ray_stop()


def sigint_and_wait(proc, timeout):
    """Sends SIGINT to `proc`; returns (returncode, seconds it took to exit)."""
    t0 = time.monotonic()
    proc.send_signal(signal.SIGINT)
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        raise AssertionError(f"the driver did not exit within {timeout} s of Ctrl-C")
    return proc.returncode, time.monotonic() - t0
