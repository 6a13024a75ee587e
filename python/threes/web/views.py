"""What each viewer is sent: every frame is computed from the viewer's seat only.

A viewer is a seat (a person at the table) or None (a spectator). For a seat
the picture is ``threes.svg.render(state, observer=seat)`` (only what the seat
can see), the events are ``event.view(seat)`` narrated by the game's
``describe`` module, and the legal moves are sent to the seat to move only.
A spectator gets ``threes.svg.render(state, observer="public")`` (what every
player sees: each hand as backs but its publicly known cards) and
``event.view(None)``; ``render(state)`` without an observer, which shows every
card, is sent only once the game is over (to everyone, as the stored game's
replay shows it). Nothing else of the state is put in a frame: no hand, no
face-down card, no draw pile, no seed of a game in progress (but a seed the creator chose,
which every seat is shown from the start, so that nobody plays a deal another may know without
being told).
"""
from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from threes import registry
from threes import svg as _svg
from threes.web.tables import MoveRecord, Table, describe_module, seat_label

__all__ = ["table_svg", "narrate_move", "state_frame", "replay_frame", "record_words", "options_words"]


def _labels(names: Sequence[str]) -> List[str]:
    """The seats as the narration names them: "seat 2 (greedy)", as ``threes play`` does."""
    return [seat_label(q, name) for q, name in enumerate(names)]


def _last_place(info: Any) -> Optional[str]:
    """The game's own word for its last place (the registry's last_place), None for the plain one."""
    return None if info.last_place == "last place" else info.last_place


def _value_words(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return " ".join(str(v) for v in value) if value else "none"
    return str(value)


def options_words(options: Dict[str, Any]) -> str:
    """A table's options (what its spec keeps) in words for people, never as JSON: "preset threes,
    pickup_then_play no", "ace either, decks 2", "the default rules"."""
    if not isinstance(options, dict) or not options:
        return "the default rules"
    out = []
    if "preset" in options:
        out.append(f"preset {_value_words(options['preset'])}")
    out += [f"{k} {_value_words(v)}" for k, v in options.items() if k != "preset"]
    return ", ".join(out)


def record_words(record: Dict[str, Any]) -> Dict[str, Any]:
    """What a stored game's replay page says in words: the game's title, its last place's word, the
    options in words and every rule in words (the game's ``rules_text`` hook, when it has one)."""
    from threes.web.storage import _game_of

    out: Dict[str, Any] = {"title": str(record.get("game")), "last_place": None,
                           "options_words": options_words(record.get("options")), "rules_words": [],
                           "labels": _labels([s.get("name", "") for s in record.get("seats", ())])}
    try:  # words for people must never break a replay (a game no longer registered, say)
        info = registry.get(record["game"])
        out.update(title=info.title, last_place=_last_place(info))
        hook = info.hook("rules_text")
        if hook is not None:
            out["rules_words"] = [str(x) for x in hook(_game_of(record).new_initial_state(seed=record["seed"]))]
    except Exception:
        pass
    return out


def table_svg(table: Table, viewer: Optional[int]) -> str:
    """The table as ``viewer`` may see it (cached per position and viewer). Once the game is over
    every card is shown to everyone (``render(state)``), as the replay of the stored game shows it."""
    if table.over:
        viewer = "all"  # type: ignore[assignment]
    key = (table.game_number, table.move_number, viewer)
    cache = table.__dict__.setdefault("_svg_cache", {})
    hit = cache.get(key)
    if hit is None:
        if len(cache) > 64:
            cache.clear()
        hit = cache[key] = picture(table.state, viewer, [s.spec.name for s in table.seats])
    return hit


def picture(state: Any, viewer: Optional[int], names: Sequence[str]) -> str:
    """``viewer``'s SVG of an engine state: the seat's own view, the public one (viewer None), or
    every card (``"all"``: a finished game only)."""
    if viewer == "all":
        if not state.is_terminal():
            raise ValueError("every card is shown only once the game is over")
        return _svg.render(state)
    return _svg.render(state, observer="public" if viewer is None else viewer)


def _narrator(game: str) -> Any:
    mod = describe_module(game)
    if mod is None:
        raise RuntimeError(f"threes.{game}.describe is missing: the web table narrates with it")
    return mod


def narrate_events(game: str, events: Sequence[Any], viewer: Optional[int], names: Sequence[str]) -> List[str]:
    """The events of one move in words for ``viewer`` (the game's ``describe_events``; each event is
    passed through ``event.view(viewer)`` first)."""
    mod = _narrator(game)
    seen = [e.view(viewer) for e in events]
    many = getattr(mod, "describe_events", None)
    if many is not None:
        out = many(seen, viewer, list(names))
        return [out] if isinstance(out, str) else [str(x) for x in out]
    return [mod.describe_event(e, viewer, list(names)) for e in seen]


def narrate_move(table: Table, rec: MoveRecord, viewer: Optional[int]) -> Dict[str, Any]:
    """One move as ``viewer`` is told it: who moved, the public notation, who chose it, the
    narrated events and the events themselves (their views)."""
    names = _labels([s.spec.name for s in table.seats])
    return {"n": rec.n, "seat": rec.seat, "move": rec.text, "by": rec.by,
            "text": narrate_events(table.spec.game, rec.events, viewer, names),
            "events": [e.view(viewer).to_dict() for e in rec.events]}


def _hints(table: Table, seat: int) -> List[str]:
    mod = describe_module(table.spec.game)
    explain = getattr(mod, "explain_moves", None) if mod is not None else None
    if explain is None:
        return []
    try:
        return [str(x) for x in explain(table.state, seat)]
    except Exception:  # a narration helper must never break a table
        return []


def _phase(state: Any) -> str:
    """The state's phase (threes.phases.GamePhase) for a game that has phases, else "play" or "over"."""
    phase = getattr(state, "phase", None)
    if phase is not None:
        return str(phase)
    return "over" if state.is_terminal() else "play"


def state_frame(table: Table, viewer: Optional[int], records: Sequence[MoveRecord] = (),
                history: bool = False) -> Dict[str, Any]:
    """The ``state`` frame for ``viewer`` after ``records`` (the moves just made): the picture,
    the moves in words, the seats, the legal moves (only for the seat to move), the result and
    the seed once the game is over. ``history``: the whole game's log instead (a join)."""
    to_move = table.to_move()
    over = table.over
    recs = table.moves if history else records
    frame: Dict[str, Any] = {
        "type": "state", "table": table.id, "game": table.spec.game, "title": table.info.title,
        # the game's name for its last place, when it has one of its own (the registry's last_place)
        "last_place": _last_place(table.info),
        "game_number": table.game_number, "move_number": table.move_number, "viewer": viewer,
        "to_move": to_move, "phase": _phase(table.state),
        "seats": [s.public() for s in table.seats], "svg": table_svg(table, viewer),
        "log": [narrate_move(table, r, viewer) for r in recs[-300:]], "history": history,
        "moves": [], "hints": [], "over": over, "result": None,
        # the seed: once the game is over, or from the start when the creator chose it (every seat is told)
        "seed": table.public_seed(), "seed_chosen": table.seed_chosen,
    }
    if viewer is not None and viewer == to_move and not over:
        frame["moves"] = table.legal_moves()
        frame["hints"] = _hints(table, viewer)
    if over:
        frame["result"] = table.result()
    return frame


def replay_frame(record: Dict[str, Any], step: int, view: Optional[int], reveal: bool) -> Dict[str, Any]:
    """A stored game after ``step`` moves: the picture (every card with ``reveal``, else ``view``'s:
    a seat or None for the public view), the move that led there and its narration."""
    from threes.web.storage import replay_state

    actions = record["actions"]
    step = max(0, min(int(step), len(actions)))
    state, last_move = replay_state(record, step)
    names = _labels([s["name"] for s in record["seats"]])
    viewer = None if reveal else view
    svg = _svg.render(state) if reveal else picture(state, view, names)
    last = None
    if last_move is not None:
        seat, text, events = last_move
        last = {"n": step - 1, "move": text, "seat": seat,
                "text": narrate_events(record["game"], events, viewer, names),
                "events": [e.view(viewer).to_dict() for e in events]}
    return {"type": "replay", "id": record["id"], "step": step, "steps": len(actions), "svg": svg, "last": last,
            "over": step == len(actions), "result": record["result"] if step == len(actions) else None}
