"""backend="ray" on a real two-node cluster on the loopback address (a head
and a worker, `ray start` processes of one CPU each): results equal the
local backend's, a worker killed mid-run costs time only, Ctrl-C on the
driver cancels the cluster's tasks, an unreachable address is named."""
import json
import os
import signal
import subprocess
import sys
import threading
import time

import numpy as np
import pytest

import threes
import threes.three_thirteen as tt
import threes.vector as tv
from test_ray_local import assert_same_rollouts
from conftest import chunk_pids, sigint_and_wait


def cli(*args, timeout=300):
    return subprocess.run([sys.executable, "-m", "threes", *args], capture_output=True, text=True, timeout=timeout,
                          env=dict(os.environ, NO_COLOR="1", COLUMNS="200"))


def test_cluster_has_two_nodes(ray_cluster):
    import ray

    alive = [n for n in ray.nodes() if n["Alive"]]
    assert len(alive) == 2 and ray.cluster_resources()["CPU"] == 2


def test_rollouts_equal_local_on_two_nodes(ray_cluster):
    for source, n, kw in ((threes.Game(4), 60_000, {}), (threes.Game(4).new_initial_state(3), 3000, {"observer": 0}),
                          (tt.Game(4), 60, {"policy": "greedy"})):
        local = threes.rollouts(source, n, seed=77, **kw)
        for chunk in (None, n // 7 + 1):
            assert_same_rollouts(local, threes.rollouts(source, n, seed=77, backend="ray", address=ray_cluster,
                                                        chunk=chunk, **kw))


def test_tournament_equals_local_on_two_nodes(ray_cluster):
    bots = ["ismcts:40", "greedy", "random"]
    local = threes.tournament(bots, 8, seed=5)
    on_ray = threes.tournament(bots, 8, seed=5, backend="ray", address=ray_cluster, chunk=2)
    assert np.array_equal(local.places, on_ray.places) and local.stats == on_ray.stats


def test_samplers_equal_local_on_two_nodes(ray_cluster):
    local = tv.Samplers(2, seed=3, num_envs=16)
    remote = tv.Samplers(2, seed=3, num_envs=16, backend="ray", address=ray_cluster)
    try:
        for x, y in zip(local.sample(25), remote.sample(25)):
            for k in x:
                assert np.array_equal(x[k], y[k]), k
    finally:
        remote.close()


def test_cli_json_and_table_equal_local(ray_cluster):
    a = json.loads(cli("simulate", "--games", "30000", "--seed", "4", "--json").stdout)
    p = cli("simulate", "--games", "30000", "--seed", "4", "--json", "--ray", ray_cluster)
    assert p.returncode == 0, p.stderr
    b = json.loads(p.stdout)
    timing = {"seconds", "games_per_second", "ns_per_move", "threads"}
    assert {k: v for k, v in a.items() if k not in timing} == {k: v for k, v in b.items() if k not in timing}
    assert b["threads"] == 2
    t1 = cli("tournament", "--bots", "greedy,random,heuristic", "--games", "12", "--seed", "2")
    t2 = cli("tournament", "--bots", "greedy,random,heuristic", "--games", "12", "--seed", "2", "--ray", ray_cluster)
    assert t2.returncode == 0, t2.stderr
    assert t1.stdout.splitlines()[2:] == t2.stdout.splitlines()[2:] and len(t1.stdout.splitlines()) == 7
    p = cli("simulate", "--game", "3-13", "--games", "50", "--json", "--ray", ray_cluster)
    q = cli("simulate", "--game", "3-13", "--games", "50", "--json")
    assert p.returncode == 0, p.stderr
    x, y = json.loads(p.stdout), json.loads(q.stdout)
    assert x["mean_score"] == y["mean_score"] and x["win_rate"] == y["win_rate"]
    p = cli("simulate", "--games", "10", "--threads", "2", "--ray", ray_cluster)
    assert p.returncode == 2 and "--threads is for the local backend" in p.stderr


class Killer(threading.Thread):
    """SIGKILLs the first Ray worker seen running a chunk."""

    def __init__(self):
        super().__init__(daemon=True)
        self.killed = None
        self.stop = threading.Event()

    def run(self):
        while not self.stop.is_set():
            pids = chunk_pids()
            if pids:
                time.sleep(0.1)  # mid-chunk
                try:
                    os.kill(pids[0], signal.SIGKILL)
                    self.killed = pids[0]
                    return
                except ProcessLookupError:
                    continue
            time.sleep(0.01)


def test_a_killed_worker_costs_time_not_correctness(ray_cluster):
    g = threes.Game(4)
    n = 400_000
    local = threes.rollouts(g, n, seed=31)
    k = Killer()
    k.start()
    try:
        on_ray = threes.rollouts(g, n, seed=31, backend="ray", address=ray_cluster, chunk=50_000)
    finally:
        k.stop.set()
    assert k.killed is not None, "no worker was killed"
    assert_same_rollouts(local, on_ray)
    bots = ["ismcts:60", "greedy", "random", "heuristic"]
    local_t = threes.tournament(bots, 12, seed=8)
    k = Killer()
    k.start()
    try:
        on_ray_t = threes.tournament(bots, 12, seed=8, backend="ray", address=ray_cluster, chunk=3)
    finally:
        k.stop.set()
    assert k.killed is not None, "no worker was killed"
    assert np.array_equal(local_t.places, on_ray_t.places) and local_t.stats == on_ray_t.stats


@pytest.mark.parametrize("command", [
    ["tournament", "--bots", "ismcts:3000,greedy", "--games", "100000"],
    ["simulate", "--game", "3-13", "--games", "5000000", "--json"],
])
def test_ctrl_c_cancels_the_cluster_tasks(ray_cluster, command):
    proc = subprocess.Popen([sys.executable, "-m", "threes", *command, "--ray", ray_cluster],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ, NO_COLOR="1"))
    try:
        deadline = time.monotonic() + 120
        while len(chunk_pids()) < 2:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the cluster never ran two chunks"
            time.sleep(0.05)
        time.sleep(0.5)
        rc, seconds = sigint_and_wait(proc, timeout=15)
    finally:
        if proc.poll() is None:
            proc.kill()
    err = proc.stderr.read().decode()
    assert rc == 130 and "interrupted" in err and "Traceback" not in err, (rc, err)
    assert seconds < 10
    deadline = time.monotonic() + 15
    while chunk_pids():
        assert time.monotonic() < deadline, "chunks still running after Ctrl-C"
        time.sleep(0.1)


def test_an_unreachable_address_is_named():
    p = cli("tournament", "--bots", "greedy,random", "--games", "2", "--ray", "127.0.0.1:9", timeout=60)
    assert p.returncode == 2 and "127.0.0.1:9" in p.stderr and "Traceback" not in p.stderr, p.stderr
    code = ("import threes\ntry:\n    threes.rollouts(threes.Game(4), 10, backend='ray', address='127.0.0.1:9')\n"
            "except ConnectionError as e:\n    print('ConnectionError', e)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "ConnectionError cannot reach the Ray cluster at 127.0.0.1:9" in p.stdout, (p.stdout, p.stderr)
