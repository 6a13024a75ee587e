"""Shared pytest hooks: the random simulation reports how many games ended
truncated at the move cap, and this prints them at the end of the run (also
under pytest-xdist, through each report's user_properties)."""

_truncated = {}


def pytest_runtest_logreport(report):
    if report.when != "call":
        return
    for name, value in report.user_properties:
        if name == "truncated_games":
            old = _truncated.get(value[0], (0, 0, 0))
            _truncated[value[0]] = tuple(a + b for a, b in zip(old, value[1:]))


def pytest_terminal_summary(terminalreporter):
    if not _truncated:
        return
    tr = terminalreporter
    tr.section("random simulation: games truncated at the move cap")
    for key in sorted(_truncated):
        truncated, games, moves = _truncated[key]
        tr.write_line(f"{key:<28} {truncated:>4} of {games} games truncated, {moves / games:8.1f} moves per game")
