"""What an edition and a match's options make of the rules: one :class:`Rules` value.

The game reads its rules from this value, built once for an edition, an options value and a
number of seats (and shared by every game of those settings), instead of asking the edition
record and the options at every step.

>>> from unokit.core.options import Options
>>> rules = rules_for("phineas-ferb", Options(stacking="progressive"), 4)
>>> rules.stack, rules.respond_all, rules.answer_card >= 0, rules.peek_card
(1, True, True, -1)
>>> rules_for("classic", Options(mode="partners"), 6).teams
3
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from .editions import edition
from .options import Options

STACK_LEVELS: Final = {"off": 0, "progressive": 1, "plus4_on_plus2": 2}
"""``stacking`` as a level: 0 off, 1 a draw card on one of the same rank, 2 a Wild Draw
Four on a Draw Two too."""


class Rules:
    """The rules of one match, read from its edition record and its options.

    Read-only: a game holds one and never changes it."""

    __slots__ = ("agent_p_discard", "answer_card", "bluffing", "force_play", "jump_in", "options",
                 "peek_card", "penalize", "respond_all", "seven_zero", "stack", "teams", "until_playable")

    def __init__(self, edition_name: str, options: Options, players: int) -> None:
        ed = edition(edition_name)
        self.options: Final = options
        self.teams: Final = players // 2 if options.mode == "partners" else 0
        """The number of teams with ``mode: partners`` (seats ``k`` and ``k + teams``), else 0."""
        self.stack: Final = STACK_LEVELS[options.stacking]
        """The house rule ``stacking`` as a level (:data:`STACK_LEVELS`)."""
        self.bluffing: Final = options.wd4_bluffing == "allow"
        """P3: an illegal Wild Draw Four may be played, and challenged."""
        self.penalize: Final = options.illegal_play == "penalize"
        """P5: a wrong card is taken back with a penalty, rather than refused."""
        self.seven_zero: Final = options.seven_zero
        self.jump_in: Final = options.jump_in
        self.until_playable: Final = options.draw_until_playable
        self.force_play: Final = options.force_play
        self.peek_card: Final = -1 if ed.peek_card is None else ed.peek_card
        """C5: the card whose player sees every other hand (Mater), or -1."""
        self.answer_card: Final = -1 if ed.answer_card is None else ed.answer_card
        """C6: the card that answers a draw card (Agent P), or -1."""
        self.respond_all: Final = self.stack > 0 or ed.answers_draw_cards
        """Whether every draw card waits for its target's answer (to stack, or to answer it)."""
        self.agent_p_discard: Final = options.agent_p_draws_from == "discard"
        """C6: the attacker answered by Agent P takes the cards under it (else from the draw pile)."""


@lru_cache(maxsize=512)
def rules_for(edition_name: str, options: Options, players: int) -> Rules:
    """The :class:`Rules` of a match (one value for every game of the same settings)."""
    return Rules(edition_name, options, players)


__all__ = ["STACK_LEVELS", "Rules", "rules_for"]
