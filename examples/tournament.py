"""The README's tournament: ISMCTS (1,000 iterations a move) against the C
policies at a 4-player threes table, duplicate deals, with a progress line
as each deal ends.

Running time on a 2-core machine (every core): the default 12 deals take
about a minute (4 deals took 17.5 s here); 500 deals take about 35 minutes.

    python examples/tournament.py                      # 12 deals, about a minute
    python examples/tournament.py --deals 500 --workers 2 --json tournament.json
"""
import argparse

import threes
from threes.bots import ISMCTSBot


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=12)
    ap.add_argument("--iterations", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--workers", type=int, default=None, help="threads (default: every core)")
    ap.add_argument("--json", default=None, help="write the result here")
    args = ap.parse_args()
    bots = [ISMCTSBot(iterations=args.iterations), "greedy", "heuristic", "random"]
    threes.tournament(bots, games=args.deals, seed=args.seed, workers=args.workers, verbose=True,
                      json_path=args.json)


if __name__ == "__main__":
    main()
