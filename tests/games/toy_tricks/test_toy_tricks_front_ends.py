"""Toy Tricks, registered with one line (conftest.py), reaches every front end that reads the
registry: threes rules, play, simulate and tournament, threes serve's lobby and tables, the
Gymnasium and PettingZoo adapters, threes.vector, threes.rollouts and the bots (the contract suite,
tests/contract, runs over it as over every game; tests/test_toy_game_layout.py counts the shared
files it needed)."""
import io
import json

import numpy as np

from threes import registry
from threes.ui import cli


def _cli(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out + out.err


def test_it_is_registered():
    info = registry.get("toy-tricks")
    assert info.name == "toy_tricks" and info.title == "Toy Tricks"
    assert [o.name for o in info.options] == ["hand_size", "low_wins", "target"]
    assert info.policies == ("random", "greedy")


def test_threes_rules_lists_its_options(capsys):
    code, out = _cli(capsys, "rules", "--game", "toy_tricks")
    assert code == 0
    for name in ("hand_size", "low_wins", "target"):
        assert name in out
    code, out = _cli(capsys, "rules", "--game", "toy_tricks", "--set", "hand_size=5")
    assert code == 0 and "5" in out


def test_threes_simulate_plays_it(capsys):
    code, out = _cli(capsys, "simulate", "--game", "toy_tricks", "--games", "300", "--players", "3", "--seed", "1",
                     "--set", "target=20")
    assert code == 0, out
    assert "300" in out.replace(",", "")


def test_threes_tournament_plays_it(capsys):
    code, out = _cli(capsys, "tournament", "--game", "toy_tricks", "--bots", "random,greedy", "--games", "4",
                     "--seed", "2")
    assert code == 0, out
    assert "greedy" in out and "random" in out


def test_threes_play_plays_a_whole_game(capsys, monkeypatch):
    moves = "\n".join(["1"] * 400) + "\n"  # the first legal move, every turn, until the game ends
    code, out = _cli(capsys, "play", "--game", "toy_tricks", "--players", "2", "--seed", "3", "--bots", "greedy",
                     "--set", "target=3", "--set", "hand_size=3", stdin=moves, monkeypatch=monkeypatch)
    assert code == 0, out[-2000:]
    assert "over" in out.lower() or "wins" in out.lower() or "place" in out.lower()


def test_the_rollouts_and_the_vector_env():
    import threes
    import threes.vector as tv

    pkg = registry.get("toy_tricks").load()
    r = threes.rollouts(pkg.Game(4), 200, ["greedy", "random", "random", "random"], seed=5, threads=2)
    assert r.num_games == 200 and r.returns.shape == (200, 4)
    assert np.allclose(r.returns.sum(axis=1), 0) and r.win_rate[0] > r.win_rate[1]
    env = tv.VectorEnv("toy_tricks", num_envs=3, num_players=2, game_options={"target": 5})
    obs, info = env.reset(seed=1)
    assert obs.shape[0] == 3
    for _ in range(200):
        mask = info["action_mask"]
        actions = np.array([np.flatnonzero(m)[0] for m in mask])
        obs, rew, term, trunc, info = env.step(actions)
    env.close()


def test_gymnasium_and_pettingzoo():
    import threes.gym
    import threes.pettingzoo

    env = threes.gym.GameEnv("toy_tricks", num_players=2, game_options={"target": 4})
    obs, info = env.reset(seed=1)
    done = False
    steps = 0
    while not done:
        a = int(np.flatnonzero(info["action_mask"])[0])
        obs, rew, term, trunc, info = env.step(a)
        done = term or trunc
        steps += 1
    assert steps > 0
    pz = threes.pettingzoo.env(game="toy_tricks", num_players=3, game_options={"target": 4})
    pz.reset(seed=2)
    for agent in pz.agent_iter(max_iter=500):
        obs, rew, term, trunc, info = pz.last()
        pz.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[0]))
    assert not pz.agents


def test_the_web_lobby_offers_it_and_a_table_plays_it(tmp_path):
    """A real server (uvicorn in a thread, 127.0.0.1): the lobby lists the game with its options, seats
    and bots; a table of a person and a bot plays a whole game over the websocket."""
    import asyncio

    import websockets

    from web.web_support import get, post, server_thread

    async def play(url: str, table: dict) -> int:
        frames = 0
        async with websockets.connect(url.replace("http://", "ws://") + "/ws", open_timeout=10, proxy=None) as ws:
            await ws.send(json.dumps({"type": "join", "table": table["table"], "seat": 0,
                                      "secret": table["secrets"][0]}))
            while True:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 10))
                if msg.get("type") != "state":
                    continue
                frames += 1
                if msg.get("over"):
                    return frames
                if msg.get("moves"):
                    await ws.send(json.dumps({"type": "act", "action": msg["moves"][0]["id"],
                                              "move_number": msg["move_number"]}))

    with server_thread(str(tmp_path / "t.sqlite3"), bot_delay=0.0) as url:
        games = {g["name"]: g for g in get(url + "/api/meta")["games"]}
        assert list(games["toy_tricks"]["options"]) == ["hand_size", "low_wins", "target"]
        assert games["toy_tricks"]["max_players"] == 4 and "greedy" in games["toy_tricks"]["bots"]
        table = post(url + "/api/tables", {"game": "toy_tricks", "rules": {"target": 2, "hand_size": 2},
                                           "seats": [{"kind": "person", "name": "ann"}, {"kind": "bot", "bot": "greedy"}]})
        frames = asyncio.run(asyncio.wait_for(play(url, table), 60))
        assert frames >= 2
        stored = get(url + "/api/games")
        assert any(g.get("game") == "toy_tricks" for g in stored["games"]), stored
