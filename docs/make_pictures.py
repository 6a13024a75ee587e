"""Writes the pictures of the game pages (docs/games/*.md) into docs/pictures/,
with threes.svg.render: the same seeds and moves give the same bytes on every
machine, and tests/test_doc_examples.py checks that running this again gives
the committed files.

Usage: python docs/make_pictures.py [OUT_DIR]   (default: docs/pictures)"""
import pathlib
import sys

import threes
import threes.bots
import threes.svg
from threes import three_thirteen as tt


def pictures():
    """(file name, SVG text) for every picture of the docs."""
    out = []
    # Shithead: a 4-player deal of the threes rules, as seat 0 sees it (the swap phase)
    deal = threes.Game(4, "threes").new_initial_state(seed=3)
    out.append(("shithead_deal.svg", threes.svg.render(deal, observer=0)))
    # Shithead: a turn. Seat 0 plays a pair of 7s on a 5 ...
    game = threes.Game(3, "classic")
    turn = game.position(hands=["7c 7d 9h", "4s 8d Qh", "6c Jd 3c"], face_up=["Ah 4d 6s", "Kc Td 2d", "9c 8h Qs"],
                         face_down=["Js 5h 3d", "Ac 7h 2h", "Ks 6d 4c"], pile="3h 5s", draw_pile="2c 9s Ad 5d",
                         rest="burned")
    out.append(("shithead_turn_before.svg", threes.svg.render(turn, observer=0)))
    events = turn.apply("7x2")
    out.append(("shithead_turn_after.svg", threes.svg.render(turn, observer=0, events=events)))
    # ... and a 10 burns the pile
    burn = game.position(hands=["Tc 5c", "6h 9s", "Kd"], face_down=["Jh", "", "8s"], pile="4s 9d")
    events = burn.apply("10x1")
    out.append(("shithead_burn.svg", threes.svg.render(burn, observer=0, events=events)))
    # Three Thirteen: round 1 of a 3-player game as seat 0 sees it; then greedy bots play on to
    # round 4, where seat 0 (greedy too) plays one turn: a draw, then a discard
    state = tt.Game(3).new_initial_state(seed=1)
    out.append(("three_thirteen_deal.svg", threes.svg.render(state, observer=0)))
    bot = threes.bots.GreedyBot(seed=1)
    while state.observation(0).round < 4 or state.current_player() != 0:
        state.apply_action(bot.step(state))
    out.append(("three_thirteen_turn_before.svg", threes.svg.render(state, observer=0)))
    events = state.apply(bot.step(state))       # the draw
    events += state.apply(bot.step(state))      # the discard
    out.append(("three_thirteen_turn_after.svg", threes.svg.render(state, observer=0, events=events)))
    return out


def main(out_dir: pathlib.Path) -> None:
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, svg in pictures():
        (out_dir / name).write_text(svg, encoding="utf-8", newline="\n")
        print(out_dir / name)


if __name__ == "__main__":
    main(pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else pathlib.Path(__file__).resolve().parent / "pictures")
