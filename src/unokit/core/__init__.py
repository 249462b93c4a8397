"""The rules engine: cards, editions, options, actions, the game's state machine, events,
observations, positions, records, the table driver and the playout.

This package imports nothing else of unokit; every other layer (bots, the terminal, the
server, the RL environments) stands on it. ``docs/engine.md`` describes its seams.
"""
