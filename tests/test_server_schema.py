"""The protocol's models are its documentation: ``docs/protocol.md``'s *Schemas* section is
their JSON Schema, they mirror the engine's events and options, and what the server sends
over random matches of every edition and option fits them."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path
from typing import get_args

import pytest

from conftest import random_options, random_step
from unokit import Game
from unokit.core.events import EVENT_TYPES
from unokit.core.options import Options
from unokit.core.phases import GAME_OVER, ROUND_OVER
from unokit.server import models
from unokit.server.protocol import GameMessage, events_of, parse, view_of

pytest.importorskip("pydantic")

DOC = Path(__file__).parents[1] / "docs" / "protocol.md"


def test_the_documented_schemas_are_the_models() -> None:
    text = DOC.read_text(encoding="utf-8")
    start, end = text.index(models.BEGIN), text.index(models.END) + len(models.END) + 1
    assert text[start:end] == models.schema_markdown(), \
        "docs/protocol.md is behind the models: python -m unokit.server.models --update docs/protocol.md"
    for kind, model in {**models.CLIENT_MODELS, **models.SERVER_MODELS}.items():
        assert f"`{kind}`: `{model.__name__}`" in text
        assert json.dumps(model.model_json_schema(), indent=1, ensure_ascii=False) in text


def test_every_model_refuses_what_it_does_not_know() -> None:
    every = {*models.CLIENT_MODELS.values(), *models.SERVER_MODELS.values(), *models.HTTP_MODELS.values(),
             *models.EVENT_MODELS, models.View, models.RoomOptions, models.Deal}
    for model in every:
        assert model.model_json_schema().get("additionalProperties") is False, model


def test_the_event_models_are_the_engines_events() -> None:
    assert [m.__name__ for m in models.EVENT_MODELS] == [t.__name__ for t in EVENT_TYPES]
    for model, event in zip(models.EVENT_MODELS, EVENT_TYPES, strict=True):
        assert list(model.model_fields) == ["type", *(f.name for f in dataclasses.fields(event))], model


def test_the_options_model_is_the_rule_books() -> None:
    defaults = Options()
    assert list(models.RoomOptions.model_fields) == [f.name for f in dataclasses.fields(Options)]
    assert models.RoomOptions().model_dump() == defaults.as_dict()


def test_the_client_messages_are_one_union() -> None:
    assert tuple(models.CLIENT_MODELS) == models.CLIENT_TYPES
    for kind, model in models.CLIENT_MODELS.items():
        assert get_args(model.model_fields["type"].annotation) == (kind,)
    assert isinstance(parse('{"type": "bot", "seat": 2, "bot": null}'), models.SetBot)


@pytest.mark.parametrize("seed", range(12))
def test_what_the_server_sends_over_random_matches_fits_the_models(seed: int) -> None:
    rng = random.Random(f"schema:{seed}")
    edition = ("classic", "cars2", "phineas-ferb")[seed % 3]
    players = rng.randint(2, 6)
    options = random_options(rng, players, edition, target=rng.choice((30, 200)))
    game = Game.new(edition, players, options, seed)
    names = tuple(f"P{s}" if s % 2 == 0 else None for s in range(players))
    events = game.opening_events()
    awaiting: set[str] = set()
    for step in range(400):
        message = GameMessage(step + 1, tuple(events), names)
        for seat in (*range(players), None):
            for text in message.texts(game, seat):
                models.SERVER_MESSAGE.validate_json(text)
            view = models.View.model_validate(view_of(game, seat, names))
            assert (view.hand == []) == (seat is None or not game.hands[seat])
            for event in events_of(events, seat):
                models.SERVER_MESSAGE.validate_python(
                    {"type": "events", "version": 1, "replay": False, "events": [event]})
        awaiting.add(game.awaiting)
        if game.phase == GAME_OVER:
            break
        if game.phase == ROUND_OVER:
            assert all(view_of(game, s, names)["legal"] == [] for s in range(players))
            assert view_of(game, 0, names)["turn"] is None
            events = game.start_round()
            continue
        seat, action = random_step(game, rng, eagerness=0.3)
        events = game.apply(seat, action)
    assert "play" in awaiting
