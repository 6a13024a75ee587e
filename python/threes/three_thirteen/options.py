"""Three Thirteen's options, declared once (threes.options): what ``Game`` takes as keywords, read by
every front end through the registry. THREE_THIRTEEN.md, "Options", defines them."""
from __future__ import annotations

from threes.options import Option

__all__ = ["OPTIONS"]

OPTIONS = (
    Option("decks", "int", None, "52-card decks shuffled together", low=1, high=255,
           none="one per two players, rounded up", section="Cards and players"),
    Option("jokers", "int", 0, "jokers added per deck (always wild)", high=255, section="Cards and players"),
    Option("ace", "choice", "low", "aces low, or either (runs may also end Q-K-A; a leftover ace scores 15)",
           choices=("low", "either"), section="T-5"),
    Option("all_wild_melds", "bool", True, "melds made only of wild cards are allowed", section="T-6"),
    Option("wild_penalty", "choice", "face", "a wild card left in a hand scores its face value, or 20",
           choices=("face", 20), section="T-8"),
    Option("rediscard_taken", "bool", False, "the card taken from the discard pile may be discarded the same turn",
           section="Options"),
    Option("go_out_first_turn", "bool", True, "a player may go out on their very first turn of a round",
           section="Options"),
)
