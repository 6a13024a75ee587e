"""The "net" bot checks its weights when it is made (threes/shithead/net.py): a weights file that is
missing, unreadable, truncated, of the wrong shapes or dtype, or holding values that are not finite
raises WeightsError (a ValueError naming the file and the problem) at construction, never at the
first move; ``threes.bots.available_bots`` offers "net" only when its weights load, and the command
line offers, and accepts, only the bots available (``THREES_NET_WEIGHTS`` names another file)."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import threes
from threes.bots import available_bots, bot_unavailable, make_bot
from threes.shithead import net
from threes.shithead.net import WEIGHTS_ENV, NetBot, WeightsError, load_weights


@pytest.fixture(autouse=True)
def _packaged_weights(monkeypatch):
    monkeypatch.delenv(WEIGHTS_ENV, raising=False)


def stored():
    """The packaged file's arrays as stored (weights (out, in), meta as JSON text)."""
    with np.load(net.weights_path()) as z:
        return {k: z[k] for k in z.files}


def write(path, arrays):
    np.savez(path, **arrays)
    return str(path)


def with_meta(arrays, **changes):
    meta = json.loads(str(arrays["meta"]))
    meta.update(changes)
    return dict(arrays, meta=np.array(json.dumps(meta)))


def test_a_copy_of_the_packaged_file_plays_alike(tmp_path):
    path = write(tmp_path / "copy.npz", stored())
    bot, packaged = NetBot(weights=path), NetBot()
    assert bot.num_players == packaged.num_players == 4
    s = threes.Game(4).new_initial_state(3)
    for _ in range(30):
        assert np.array_equal(bot.logits(s), packaged.logits(s))
        s.apply_action(bot.step(s))
    assert not load_weights(path)["w1"].flags.writeable


def _broken(tmp_path):
    """(name, path of a broken weights file, what the error must say)."""
    good = stored()
    raw = open(net.weights_path(), "rb").read()
    cases = []

    def add(name, arrays=None, data=None, match=""):
        path = tmp_path / f"{name}.npz"
        if arrays is not None:
            write(path, arrays)
        elif data is not None:
            path.write_bytes(data)
        cases.append((name, str(path), match))

    add("missing", match="does not exist")
    add("truncated", data=raw[: len(raw) // 2], match="cannot be read as a .npz archive")
    add("truncated_tail", data=raw[:-100], match="cannot be read as a .npz archive")
    add("empty", data=b"", match="cannot be read as a .npz archive")
    add("garbage", data=os.urandom(4096), match="cannot be read")
    add("damaged", data=raw[:2000] + bytes(b ^ 0xFF for b in raw[2000:2400]) + raw[2400:],
        match="cannot be read as a .npz archive")
    add("lacks_w3", {k: v for k, v in good.items() if k != "w3"}, match="lacks w3")
    add("lacks_meta", {k: v for k, v in good.items() if k != "meta"}, match="lacks meta")
    add("extra_array", dict(good, w4=good["b1"]), match="unknown arrays w4")
    add("w1_shape", dict(good, w1=good["w1"][:, :-1]), match=r"w1 has shape \(256, 205\), not \(256, 206\)")
    add("w3_transposed", dict(good, w3=good["w3"].T.copy()), match="w3 has shape")
    add("b3_shape", dict(good, b3=good["b3"][:-1]), match="b3 has shape")
    add("b1_matrix", dict(good, b1=good["b1"][None, :]), match="b1 has shape")
    add("float64", dict(good, w2=good["w2"].astype(np.float64)), match="w2 is float64, not float32")
    add("ints", dict(good, b2=good["b2"].astype(np.int32)), match="b2 is int32, not float32")
    nan = good["w2"].copy()
    nan[3, 7] = np.nan
    add("nan", dict(good, w2=nan), match="w2 holds 1 value.* not finite")
    inf = good["b1"].copy()
    inf[0] = np.inf
    add("inf", dict(good, b1=inf), match="b1 holds 1 value.* not finite")
    add("meta_not_json", dict(good, meta=np.array("{not json")), match="meta must be a JSON object")
    add("meta_list", dict(good, meta=np.array("[1, 2]")), match="meta must be a JSON object")
    add("meta_number", dict(good, meta=np.array(3.0)), match="meta must be a JSON object")
    add("meta_no_hidden", with_meta(good, hidden=None), match="meta's hidden must be a positive int")
    add("meta_other_game", with_meta(good, game="three_thirteen"), match="a network for 'three_thirteen'")
    add("meta_players", with_meta(good, num_players=13), match="num_players 13 is not a Shithead table")
    add("meta_obs_size", with_meta(good, obs_size=205), match="obs_size 205 is not the 206 values")
    add("meta_3_players", with_meta(good, num_players=3), match="obs_size 206 is not the")
    add("meta_actions", with_meta(good, num_actions=600), match="num_actions 600 is not the 676")
    add("meta_bool", with_meta(good, hidden=True), match="meta's hidden must be a positive int")
    return cases


def test_every_broken_file_is_refused_when_the_bot_is_made(tmp_path, monkeypatch):
    for name, path, match in _broken(tmp_path):
        for make in (lambda: NetBot(weights=path), lambda: load_weights(path)):
            with pytest.raises(WeightsError, match=match) as info:
                make()
            assert path in str(info.value), name
            assert isinstance(info.value, ValueError)
        monkeypatch.setenv(WEIGHTS_ENV, path)
        with pytest.raises(WeightsError, match=match):
            make_bot("net")
        with pytest.raises(WeightsError, match=rf"named by {WEIGHTS_ENV}"):
            make_bot("net", game="shithead")
        assert "net" not in available_bots() and "net" not in available_bots("shithead", 4), name
        reason = bot_unavailable("net", "shithead")
        assert reason is not None and path in reason
        monkeypatch.delenv(WEIGHTS_ENV)
    assert "net" in available_bots()  # the packaged file again


def test_a_directory_and_an_unreadable_file(tmp_path):
    with pytest.raises(WeightsError, match="is a directory|cannot be read"):
        NetBot(weights=str(tmp_path))
    path = tmp_path / "locked.npz"
    write(path, stored())
    os.chmod(path, 0)
    try:
        if os.access(path, os.R_OK):  # root reads anything: then it is simply a good file
            assert NetBot(weights=str(path)).num_players == 4
        else:
            with pytest.raises(WeightsError, match="cannot be read"):
                NetBot(weights=str(path))
    finally:
        os.chmod(path, 0o644)
    with pytest.raises(TypeError, match="weights must be a file path"):
        NetBot(weights=3)


def test_a_broken_file_is_read_once_and_again_when_it_changes(tmp_path, monkeypatch):
    path = tmp_path / "w.npz"
    good = stored()
    nan = good["w1"].copy()
    nan[0, 0] = np.nan
    write(path, dict(good, w1=nan))
    reads = []
    real = net._read
    monkeypatch.setattr(net, "_read", lambda p: (reads.append(p), real(p))[1])
    monkeypatch.setenv(WEIGHTS_ENV, str(path))
    for _ in range(3):
        assert "net" not in available_bots()
        with pytest.raises(WeightsError, match="not finite"):
            make_bot("net")
    assert len(reads) == 1
    write(path, good)  # repaired (another size than the broken one, so another cache key)
    assert "net" in available_bots("shithead")
    assert make_bot("net").num_players == 4
    assert len(reads) == 2


def test_available_bots():
    assert available_bots() == ["random", "greedy", "heuristic", "net", "ismcts"]
    assert available_bots("shithead") == ["random", "greedy", "heuristic", "net", "ismcts"]
    assert available_bots("three-thirteen") == ["random", "greedy", "ismcts"]
    assert available_bots(threes.three_thirteen.Game(3)) == ["random", "greedy", "ismcts"]
    assert available_bots(threes.Game(4).new_initial_state(1), num_players=4)[3] == "net"
    assert "net" not in available_bots("shithead", num_players=3)
    assert bot_unavailable("net", "shithead", 3) == "the net bot plays 4-player Shithead only, not 3 players"
    assert bot_unavailable("net", "shithead", 4) is None
    for spec in available_bots():
        make_bot(spec, game="shithead")  # every spec offered can be made
    with pytest.raises(ValueError, match="unknown game"):
        available_bots("chess")
    with pytest.raises(TypeError):
        available_bots("shithead", num_players="4")
    with pytest.raises(ValueError, match=r"num_players must be in 1\.\.255"):
        available_bots("shithead", num_players=2**64)


# ------------------------------------------------------------------------------ command line --
def run(*args, env_weights=None):
    env = {"PYTHONIOENCODING": "utf-8", "COLUMNS": "300", "NO_COLOR": "1", "PATH": "/usr/bin:/bin"}
    if env_weights is not None:
        env[WEIGHTS_ENV] = env_weights
    return subprocess.run([sys.executable, "-m", "threes", *args], capture_output=True, text=True, encoding="utf-8",
                          timeout=120, input="", env=env)


def test_the_command_line_offers_and_takes_only_available_bots(tmp_path):
    broken = str(tmp_path / "broken.npz")
    (tmp_path / "broken.npz").write_bytes(b"PK\x03\x04 not really a zip")
    p = run("--help")
    assert p.returncode == 0 and "net (4-player Shithead)" in p.stdout
    for sub in ("play", "tournament"):
        p = run(sub, "--help", env_weights=broken)
        assert p.returncode == 0, p.stderr
        text = " ".join(p.stdout.split())
        assert "random, greedy, heuristic [the net bot cannot be made here" in text
        assert "net (4-player" not in text
    for args in (("play", "--players", "4", "--bots", "net"),
                 ("tournament", "--bots", "net,greedy,greedy,greedy", "--games", "1")):
        p = run(*args, env_weights=broken)
        assert p.returncode == 2 and "Traceback" not in p.stderr, p.stderr
        assert "the net bot cannot be made here" in p.stderr and broken in p.stderr
        assert "the bots available here are random, greedy, heuristic, ismcts" in p.stderr
    # a table of another size: refused before the game, not at the net bot's first move
    p = run("play", "--players", "3", "--bots", "net")
    assert p.returncode == 2 and "the net bot plays 4-player Shithead only, not 3 players" in p.stderr, p.stderr
    p = run("tournament", "--bots", "net,greedy,greedy", "--games", "1")
    assert p.returncode == 2 and "not 3 players" in p.stderr, p.stderr
    p = run("tournament", "--bots", "net,greedy,greedy,greedy", "--games", "1", "--seed", "1")
    assert p.returncode == 0, p.stderr
