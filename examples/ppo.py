"""PPO with action masking over threes.vector, in one file (CleanRL style).

One learner seat against C policies, many games at once in C
(threes.vector.VectorEnv, SAME_STEP autoreset), a masked categorical policy
and a value head in PyTorch. Needs the ``rl`` extra (``pip install
".[rl]"``: PyTorch, matplotlib); the test extra does not install PyTorch.
Without a GPU, install PyTorch's CPU build first (a plain ``pip install
torch`` on Linux takes the CUDA build, several GB): ``pip install torch
--index-url https://download.pytorch.org/whl/cpu``, then ``pip install
".[rl]"``.

Running time on a 2-core machine: the default 100,000 learner steps take
about a minute (a progress line per update; 200,000 steps took 142 s here
with other work running, 1,553 steps/s); the runs below about 30 minutes
each.

    python examples/ppo.py                                  # 100,000 steps, about a minute
    python examples/ppo.py --opponents random --total-steps 3000000 --save runs/ppo_random
    python examples/ppo.py --opponents greedy --total-steps 3000000 --save runs/ppo_greedy

Every update appends a row to ``<save>.csv`` (learner steps, seconds, steps/s,
mean return and first-place rate of the episodes finished since the last row);
at the end the weights go to ``<save>.pt`` and, with ``--eval-deals N``, the
agent plays a duplicate-deal tournament (threes.tournament) against each of
random, greedy and heuristic, printed with its 95% intervals.

``python examples/ppo.py --plot OUT.png A.csv B.csv ...`` draws the learning
curves of such logs (mean return and first-place rate against learner steps).
``python examples/ppo.py --export OUT.npz SAVE.pt`` writes the policy of a
trained agent (trunk and actor, float32) as the numpy arrays the built-in
``"net"`` bot reads (threes/shithead/net.py; no PyTorch needed to play).

The learner is not told about masks through the reward: illegal ids get a
logit of -1e9 (finite, so a softmax never sees NaN) and are never sampled.
Observations are the engine's counts; the network sees log1p(obs).
"""
from __future__ import annotations

import argparse
import csv
import json
import os
import time

import numpy as np
import torch
import torch.nn as nn

import threes
import threes.vector


def layer(n_in: int, n_out: int, std: float = np.sqrt(2)) -> nn.Linear:
    lin = nn.Linear(n_in, n_out)
    nn.init.orthogonal_(lin.weight, std)
    nn.init.constant_(lin.bias, 0.0)
    return lin


class Agent(nn.Module):
    """An MLP trunk, a policy head over every action id and a value head."""

    def __init__(self, obs_size: int, num_actions: int, hidden: int = 256):
        super().__init__()
        self.trunk = nn.Sequential(layer(obs_size, hidden), nn.Tanh(), layer(hidden, hidden), nn.Tanh())
        self.actor = layer(hidden, num_actions, 0.01)
        self.critic = layer(hidden, 1, 1.0)

    def forward(self, obs: torch.Tensor, mask: torch.Tensor):
        h = self.trunk(torch.log1p(obs))
        logits = self.actor(h).masked_fill(~mask, -1e9)
        return logits, self.critic(h).squeeze(-1)

    def act(self, obs, mask, action=None):
        logits, value = self(obs, mask)
        dist = torch.distributions.Categorical(logits=logits)
        if action is None:
            action = dist.sample()
        return action, dist.log_prob(action), dist.entropy(), value


class NetBot:
    """The trained agent as a threes bot (``step(state) -> action``): the
    greedy action of the policy on the seat's observation (a bot view's
    observation is the seat's own, whatever the hidden cards)."""

    name = "ppo"

    def __init__(self, agent: Agent, num_actions: int):
        self.agent, self.num_actions = agent, num_actions

    def step(self, state):
        p = state.current_player()
        obs = torch.as_tensor(np.asarray(state.observation_tensor(p), np.float32))[None]
        mask = torch.zeros(1, self.num_actions, dtype=torch.bool)
        mask[0, state.legal_actions()] = True
        with torch.no_grad():
            logits, _ = self.agent(obs, mask)
        return int(logits.argmax())


def parse(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", default="shithead")
    p.add_argument("--num-players", type=int, default=4)
    p.add_argument("--opponents", default="random", help="a C policy of the game for every other seat")
    p.add_argument("--num-envs", type=int, default=128)
    p.add_argument("--num-steps", type=int, default=64, help="steps per env per update")
    p.add_argument("--total-steps", type=int, default=100_000, help="learner steps in all")
    p.add_argument("--threads", type=int, default=1, help="native threads of the vector env")
    p.add_argument("--torch-threads", type=int, default=1)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--gamma", type=float, default=0.995)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--minibatches", type=int, default=4)
    p.add_argument("--epochs", type=int, default=4)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.01)
    p.add_argument("--vf-coef", type=float, default=0.5)
    p.add_argument("--max-grad-norm", type=float, default=0.5)
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--save", default="runs/ppo", help="prefix of the .csv log and .pt weights")
    p.add_argument("--eval-deals", type=int, default=0, help="duplicate deals per tournament at the end")
    p.add_argument("--plot", metavar="OUT", help="draw the curves of the CSV logs given after it into OUT, and stop")
    p.add_argument("--export", metavar="OUT", help="write the policy of the .pt given after it as numpy arrays, and stop")
    p.add_argument("logs", nargs="*", help="with --plot: the .csv logs; with --export: the .pt")
    return p.parse_args(argv)


def train(args) -> Agent:
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.torch_threads)
    envs = threes.vector.VectorEnv(args.game, args.num_envs, num_players=args.num_players, seat=0,
                                   opponents=args.opponents, threads=args.threads, seed=args.seed,
                                   autoreset_mode="SameStep")
    n, t_len = args.num_envs, args.num_steps
    obs_size, na = envs.single_observation_space.shape[0], envs.single_action_space.n
    agent = Agent(obs_size, na, args.hidden)
    opt = torch.optim.Adam(agent.parameters(), lr=args.lr, eps=1e-5)
    obs_b = torch.zeros(t_len, n, obs_size)
    mask_b = torch.zeros(t_len, n, na, dtype=torch.bool)
    act_b = torch.zeros(t_len, n, dtype=torch.long)
    logp_b, rew_b, done_b, val_b = (torch.zeros(t_len, n) for _ in range(4))
    obs, info = envs.reset(seed=args.seed)
    next_obs, next_mask = torch.tensor(obs), torch.tensor(info["action_mask"])
    next_done = torch.zeros(n)
    updates = max(1, args.total_steps // (n * t_len))
    os.makedirs(os.path.dirname(args.save) or ".", exist_ok=True)
    log = open(args.save + ".csv", "w", newline="")
    out = csv.writer(log)
    out.writerow(["update", "learner_steps", "seconds", "steps_per_s", "episodes", "mean_return", "first_rate"])
    t0, env_time, steps = time.perf_counter(), 0.0, 0
    returns, firsts = [], []
    for update in range(1, updates + 1):
        frac = 1.0 - (update - 1.0) / updates
        opt.param_groups[0]["lr"] = frac * args.lr
        for t in range(t_len):
            obs_b[t], mask_b[t], done_b[t] = next_obs, next_mask, next_done
            with torch.no_grad():
                action, logp, _, value = agent.act(next_obs, next_mask)
            act_b[t], logp_b[t], val_b[t] = action, logp, value
            te = time.perf_counter()
            obs, reward, term, trunc, info = envs.step(action.numpy())
            env_time += time.perf_counter() - te
            ended = term | trunc
            rew_b[t] = torch.tensor(reward)
            next_obs, next_mask = torch.tensor(obs), torch.tensor(info["action_mask"])
            next_done = torch.tensor(ended, dtype=torch.float32)
            if ended.any():
                r = reward[ended]
                returns.extend(r.tolist())
                firsts.extend((r >= 1.0).tolist())
            steps += n
        with torch.no_grad():  # GAE; an ended episode does not bootstrap (SAME_STEP: next_obs is the new one)
            _, next_value = agent(next_obs, next_mask)
            adv = torch.zeros(t_len, n)
            last = torch.zeros(n)
            for t in reversed(range(t_len)):
                nonterm = 1.0 - (next_done if t == t_len - 1 else done_b[t + 1])
                nv = next_value if t == t_len - 1 else val_b[t + 1]
                delta = rew_b[t] + args.gamma * nv * nonterm - val_b[t]
                last = delta + args.gamma * args.gae_lambda * nonterm * last
                adv[t] = last
            ret = adv + val_b
        b_obs, b_mask = obs_b.reshape(-1, obs_size), mask_b.reshape(-1, na)
        b_act, b_logp, b_adv, b_ret = act_b.reshape(-1), logp_b.reshape(-1), adv.reshape(-1), ret.reshape(-1)
        size = n * t_len
        mb = size // args.minibatches
        for _ in range(args.epochs):
            perm = torch.randperm(size)
            for k in range(0, size, mb):
                i = perm[k:k + mb]
                _, logp, ent, value = agent.act(b_obs[i], b_mask[i], b_act[i])
                ratio = (logp - b_logp[i]).exp()
                a = b_adv[i]
                a = (a - a.mean()) / (a.std() + 1e-8)
                pg = torch.max(-a * ratio, -a * ratio.clamp(1 - args.clip, 1 + args.clip)).mean()
                vloss = 0.5 * ((value - b_ret[i]) ** 2).mean()
                loss = pg - args.ent_coef * ent.mean() + args.vf_coef * vloss
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                opt.step()
        secs = time.perf_counter() - t0
        if returns:
            out.writerow([update, steps, f"{secs:.1f}", f"{steps / secs:.0f}", len(returns),
                          f"{np.mean(returns):.4f}", f"{np.mean(firsts):.4f}"])
            log.flush()
            print(f"update {update}/{updates}: {steps:,} steps, {steps / secs:,.0f} steps/s "
                  f"(env alone {steps / env_time:,.0f}), {len(returns)} episodes: mean return "
                  f"{np.mean(returns):+.3f}, first place {np.mean(firsts):.1%}", flush=True)
            returns, firsts = [], []
    log.close()
    torch.save({"state_dict": agent.state_dict(), "obs_size": obs_size, "num_actions": na,
                "hidden": args.hidden, "args": vars(args)}, args.save + ".pt")
    secs = time.perf_counter() - t0
    print(f"trained {steps:,} learner steps in {secs:.0f} s ({steps / secs:,.0f} steps/s; the vector env alone "
          f"{steps / env_time:,.0f})")
    return agent


def evaluate(agent: Agent, args) -> dict:
    """Duplicate-deal tournaments: the agent against 3 copies of each bot."""
    agent.eval()
    game = threes.registry.get(args.game).load().Game(args.num_players)
    bot = NetBot(agent, game.num_distinct_actions())
    results = {}
    for other in ("random", "greedy", "heuristic"):
        if other not in threes.registry.get(args.game).policies and other != "heuristic":
            continue
        r = threes.tournament([bot] + [other] * (args.num_players - 1), games=args.eval_deals, seed=args.seed + 1,
                              game=game, workers=1)
        print(f"\nagainst {args.num_players - 1} x {other}:")
        print(r)
        results[other] = r.to_dict() if hasattr(r, "to_dict") else str(r)
    with open(args.save + ".eval.json", "w") as f:
        json.dump(results, f, indent=1, default=str)
    return results


def plot(out: str, logs) -> None:
    """Learning curves of ppo.py logs, one line per log."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8))
    for path in logs:
        rows = list(csv.DictReader(open(path)))
        x = np.array([int(r["learner_steps"]) for r in rows]) / 1e6
        label = os.path.splitext(os.path.basename(path))[0]
        for ax, key in zip(axes, ("mean_return", "first_rate")):
            y = np.array([float(r[key]) for r in rows])
            k = max(1, len(y) // 30)  # a running mean over about 1/30 of the run
            ax.plot(x[k - 1:], np.convolve(y, np.ones(k) / k, mode="valid"), label=label)
    axes[0].set_ylabel("mean return of the learner (-1 last .. 1 first)")
    axes[1].set_ylabel("first-place rate")
    for ax in axes:
        ax.set_xlabel("learner steps (millions)")
        ax.grid(alpha=0.3)
    axes[1].legend()
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")


def export(out: str, saved: str) -> None:
    """The policy of a saved agent (``<save>.pt``) as numpy arrays: the two
    trunk layers and the actor (``w1 b1 w2 b2 w3 b3``, weights laid out
    (out, in) as in torch) and what it was trained on."""
    ckpt = torch.load(saved, map_location="cpu", weights_only=False)
    sd, a = ckpt["state_dict"], ckpt["args"]
    names = {"w1": "trunk.0.weight", "b1": "trunk.0.bias", "w2": "trunk.2.weight", "b2": "trunk.2.bias",
             "w3": "actor.weight", "b3": "actor.bias"}
    arrays = {k: sd[v].detach().numpy().astype(np.float32) for k, v in names.items()}
    rows = list(csv.DictReader(open(os.path.splitext(saved)[0] + ".csv")))
    meta = {"game": a["game"], "num_players": a["num_players"], "opponents": a["opponents"],
            "learner_steps": int(rows[-1]["learner_steps"]) if rows else 0, "seed": a["seed"],
            "obs_size": int(ckpt["obs_size"]), "num_actions": int(ckpt["num_actions"]), "hidden": int(ckpt["hidden"]),
            "input": "log1p(observation_tensor(seat))", "activation": "tanh"}
    np.savez_compressed(out, meta=np.array(json.dumps(meta)), **arrays)
    print(f"wrote {out}: {meta}")


def main(argv=None):
    args = parse(argv)
    if args.plot:
        plot(args.plot, args.logs)
        return
    if args.export:
        if len(args.logs) != 1:
            raise SystemExit("--export OUT.npz takes one saved agent (.pt)")
        export(args.export, args.logs[0])
        return
    agent = train(args)
    if args.eval_deals:
        evaluate(agent, args)


if __name__ == "__main__":
    main()
