"""``strong``: determinized Monte Carlo search over the hidden cards (see ``docs/bots.md``).

At each decision with more than one sensible choice, the bot samples *determinizations*:
full games consistent with everything its seat has seen. The cards it cannot see (the
edition's deck minus its own hand and the discard pile) are dealt at random to the other
seats by their hand sizes, with the cards it knows they hold (from a Mater peek or a
challenge, ``obs.seen``, less the cards they have played since) placed first, and the other
cards dealt so as to explain every choice each seat made, taking it to play like the heuristic
(:mod:`unokit.bots.inference`; where house rules turn that off, only the cards that a seat's
draws and wild plays say it did not hold, :func:`~.belief.draw_constraints`, are kept out of
its hand); the rest form the draw pile in random order. From each determinization every
candidate action is played out to the end of the round by the heuristic's rules for every
seat (:mod:`.rollouts`), with the same sampled world and the same random numbers for every
candidate (common random numbers); the bot's own seat plays there with a preference for a
colour the next seat lacks. Candidates clearly behind are dropped as the samples come in
(:func:`~.search.prune`), and so is a challenge that no sample makes a success. The default
move (the heuristic's, steered to a colour the next seat lacks:
:func:`~.search.informed_choice`) is kept unless another candidate beats it significantly over
these paired samples (:func:`~.search.choose`). Out-of-turn choices (catching, calling UNO,
jumping in) follow the heuristic bot: always catch, always call.

The budget is explicit: ``rollouts`` per decision (at least ``iterations``
determinizations; deterministic given the seed), capped at ``max_ms`` milliseconds (50 by
default; ``max_ms=0`` for no cap and exact reproducibility), or instead ``time_ms``
milliseconds per decision (measured with ``time.perf_counter``). See ``docs/strength.md``
for the measured times.

The bot reads only its :class:`~unokit.core.observation.Observation`, which carries the match
options (public: every seat knows the rules it plays by): its sampled worlds play by them.

The package splits by concern: :mod:`.belief` (what the seat knows or infers about the hidden
cards), :mod:`.sampling` (determinizations, built by
:meth:`Game.from_observation <unokit.core.game.Game.from_observation>`), :mod:`.rollouts` (the
playout policy, through the engine's public API) and :mod:`.search` (:class:`StrongBot`).

>>> from unokit import Game
>>> from unokit.bots import HeuristicBot, StrongBot, play_match
>>> game = Game.new("classic", 2, seed=4)
>>> bots = [StrongBot(seed=1, rollouts=8, iterations=2, max_ms=0), HeuristicBot(seed=2)]
>>> play_match(game, bots).is_over
True
"""

from .belief import draw_constraints, known_hands, known_voids
from .rollouts import rollout
from .sampling import deal, determinize
from .search import (
    CONFIDENCE,
    DEFAULT_ITERATIONS,
    DEFAULT_ROLLOUTS,
    INFER_DEPTH,
    MAX_MS,
    PARTICLES,
    V1_PARTICLES,
    V1_ROLLOUTS,
    StrongBot,
    choose,
    has_play,
    informed_choice,
    prune,
)

__all__ = ["CONFIDENCE", "DEFAULT_ITERATIONS", "DEFAULT_ROLLOUTS", "INFER_DEPTH", "MAX_MS", "PARTICLES",
           "V1_PARTICLES", "V1_ROLLOUTS", "StrongBot",
           "choose", "deal", "determinize", "draw_constraints", "has_play", "informed_choice",
           "known_hands", "known_voids", "prune", "rollout"]
