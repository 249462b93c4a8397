"""One description of the options, ``unokit.core.options.OPTION_SPECS``: it is :class:`Options`'
fields and defaults and the bounds that ``Options`` checks; the server's ``RoomOptions`` and
``/api/config``'s ``options`` are built from it, and so are the tests' random options; an option
added to it appears in all of these."""

from __future__ import annotations

import dataclasses
import random
from typing import Any, get_args, get_type_hints

import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import option_domain, option_maps, random_option_values
from unokit import OptionError, Options
from unokit.core.options import OPTION_SPECS, OptionSpec, option_spec
from unokit.text.i18n import LANGUAGES, translator

EXTRA = OptionSpec("lucky_number", "int", 3, "a test's own option", minimum=2, maximum=9)
"""An option that only these tests know."""
SPECS = (*OPTION_SPECS, EXTRA)


def _inside_and_outside(spec: OptionSpec) -> tuple[list[Any], list[Any]]:
    """Values of ``spec`` at its bounds, and values just outside them."""
    if spec.kind == "choice":
        return list(spec.choices), [spec.choices[0] + "x", spec.choices[0].upper()]
    if spec.kind == "bool":
        return [True, False], ["maybe"]
    assert spec.maximum is not None
    if spec.exclusive_minimum is not None:
        low = spec.exclusive_minimum
        inside, outside = [low + 0.5, spec.maximum], [low, low - 1, spec.maximum + 0.5]
    else:
        assert spec.minimum is not None
        inside, outside = [spec.minimum, spec.maximum], [spec.minimum - 1, spec.maximum + 1]
    if spec.kind == "int":
        outside.append(spec.minimum + 0.5 if spec.minimum is not None else 1.5)
    return inside, outside


def test_the_schema_is_every_field_of_options_with_its_default() -> None:
    assert [spec.name for spec in OPTION_SPECS] == [f.name for f in dataclasses.fields(Options)]
    assert Options().as_dict() == {spec.name: spec.default for spec in OPTION_SPECS}
    hints = get_type_hints(Options)
    for spec in OPTION_SPECS:
        assert option_spec(spec.name) is spec
        assert spec.description and "\n" not in spec.description, spec.name
        if spec.kind == "choice":
            assert get_args(hints[spec.name]) == spec.choices, spec.name  # its Literal type
    with pytest.raises(OptionError, match="unknown option 'lucky_number'"):
        option_spec("lucky_number")


@pytest.mark.parametrize("spec", OPTION_SPECS, ids=lambda spec: spec.name)
def test_options_takes_the_bounds_of_the_schema_and_refuses_just_outside(spec: OptionSpec) -> None:
    inside, outside = _inside_and_outside(spec)
    for value in inside:
        assert getattr(Options.from_mapping({spec.name: value}), spec.name) == value
        assert getattr(Options.from_strings([f"{spec.name}={value}"]), spec.name) == value
    for value in outside:
        with pytest.raises(OptionError, match=spec.name):
            Options.from_mapping({spec.name: value})


def test_a_spec_is_whole() -> None:
    with pytest.raises(ValueError, match="choice"):
        OptionSpec("colour", "choice", "red", "a choice without values")
    with pytest.raises(ValueError, match="maximum"):
        OptionSpec("size", "int", 3, "a number without bounds")
    with pytest.raises(ValueError, match="default"):
        OptionSpec("size", "int", 30, "a default out of bounds", minimum=1, maximum=9)
    assert EXTRA.parse("9") == 9 and EXTRA.range_text() == "2 to 9"
    with pytest.raises(OptionError, match=r"'lucky_number': 10 is out of range \(2 to 9\)"):
        EXTRA.parse(10)


@pytest.mark.parametrize("spec", SPECS, ids=lambda spec: spec.name)
def test_the_rooms_model_takes_the_bounds_of_the_schema_and_refuses_just_outside(spec: OptionSpec) -> None:
    pytest.importorskip("pydantic")
    from pydantic import ValidationError

    from unokit.server import models

    model = models.options_model(SPECS)
    inside, outside = _inside_and_outside(spec)
    for value in inside:
        assert getattr(model.model_validate({spec.name: value}), spec.name) == value
    for value in outside:
        with pytest.raises(ValidationError, match=spec.name):
            model.model_validate({spec.name: value})
    field = model.model_json_schema()["properties"][spec.name]
    assert field["default"] == spec.default and field["description"] == spec.description


def test_the_rooms_model_is_the_schemas() -> None:
    pytest.importorskip("pydantic")
    from unokit.server import models

    assert list(models.RoomOptions.model_fields) == [spec.name for spec in OPTION_SPECS]
    assert models.RoomOptions().model_dump() == Options().as_dict()
    assert models.RoomOptions.model_json_schema() == models.options_model().model_json_schema()
    extra = models.options_model(SPECS)
    assert list(extra.model_fields) == [spec.name for spec in SPECS]
    assert extra().model_dump()["lucky_number"] == 3


def _config_entry(spec: OptionSpec) -> dict[str, Any]:
    """What ``/api/config`` says of ``spec``, written out from the spec's parts."""
    form = {"group": spec.group, "label": spec.label or spec.name}
    if spec.kind == "choice":
        labels = spec.choice_labels or spec.choices
        return {"type": "choice", "default": spec.default, **form, "choices": list(spec.choices),
                "choice_labels": {v: labels[k] for k, v in enumerate(spec.choices)}}
    if spec.kind == "bool":
        return {"type": "bool", "default": spec.default, **form}
    least = spec.minimum if spec.exclusive_minimum is None else int(spec.exclusive_minimum) + 1
    return {"type": spec.kind, "default": spec.default, **form, "min": least, "max": spec.maximum}


def test_the_configs_options_are_the_schema() -> None:
    pytest.importorskip("fastapi")
    from test_server_support import app_client
    from unokit.server.routes.pages import options_config

    with app_client() as client:
        options = client.get("/api/config").json()["options"]
    assert options == {spec.name: _config_entry(spec) for spec in OPTION_SPECS}
    assert list(options) == [spec.name for spec in OPTION_SPECS]
    assert options["target"] == {"type": "number", "default": 500, "group": "match", "label": "Target score",
                                 "min": 1, "max": 100_000}
    assert options["hand_size"] == {"type": "int", "default": 7, "group": "match",
                                    "label": "Cards dealt to each player", "min": 1, "max": 15}
    assert options["stacking"]["group"] == "house" and options["stacking"]["choice_labels"]["off"] == "Off"
    assert [n for n, o in options.items() if o["group"] == "house"] == [
        "stacking", "seven_zero", "jump_in", "draw_until_playable", "force_play"]
    for spec in OPTION_SPECS:  # what the form offers, the engine takes
        entry = options[spec.name]
        for value in entry.get("choices", [entry.get("min"), entry.get("max")]):
            if value is not None:
                Options.from_mapping({spec.name: value})
    assert options_config(SPECS)["lucky_number"] == {"type": "int", "default": 3, "group": "match",
                                                     "label": "lucky_number", "min": 2, "max": 9}


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_every_option_has_a_name_in_every_language(lang: str) -> None:
    """The new-room form names each option and each value with a message of the catalogues."""
    catalog = translator(lang).catalog._catalog  # type: ignore[attr-defined]
    for spec in OPTION_SPECS:
        assert spec.label and catalog.get(spec.label), (lang, spec.name)
        if spec.kind == "choice":
            assert len(spec.choice_labels) == len(spec.choices), spec.name
            for label in spec.choice_labels:
                assert catalog.get(label), (lang, spec.name, label)


def test_a_choice_names_each_of_its_values() -> None:
    with pytest.raises(ValueError, match="one label for each"):
        OptionSpec("x", "choice", "a", "two values, one name", choices=("a", "b"), choice_labels=("A",))


def test_the_random_options_are_the_schemas() -> None:
    specs = {spec.name: spec for spec in SPECS}
    seen: dict[str, set[Any]] = {name: set() for name in specs}
    for seed in range(300):
        players = 2 + seed % 9
        values = random_option_values(random.Random(seed), players, "classic", specs=SPECS)
        assert set(values) <= set(seen)
        for name, value in values.items():
            assert value in option_domain(specs[name], players, "classic")
            seen[name].add(value)
    assert all(len(values) >= 2 for values in seen.values()), seen  # every option, and not one value
    assert seen["lucky_number"] == set(range(2, 10))
    assert seen["mode"] == {"individual", "partners", "elimination"}
    fixed = random_option_values(random.Random(1), 3, "classic", specs=SPECS, lucky_number=range(8, 20),
                                 target=40)
    assert fixed["target"] == 40 and fixed["lucky_number"] in (8, 9) and fixed.get("mode") != "partners"


def test_the_domains_follow_the_match() -> None:
    assert option_domain(option_spec("hand_size"), 10, "classic") == range(1, 11)  # 107 cards to deal
    assert option_domain(option_spec("hand_size"), 2, "classic") == range(1, 16)
    assert "partners" not in option_domain(option_spec("mode"), 5, "classic")
    assert option_domain(option_spec("target"), 2, "classic") == range(1, 100_001)


@given(st.data())
def test_the_strategy_draws_every_option_of_the_schema(data: st.DataObject) -> None:
    players = data.draw(st.integers(2, 10))
    values = data.draw(option_maps(players, "cars2", specs=SPECS, required=("lucky_number",)))
    assert 2 <= values["lucky_number"] <= 9
    known = {k: v for k, v in values.items() if k != "lucky_number"}
    Options.from_mapping(known)  # every value is one the engine takes
    narrowed = data.draw(option_maps(players, "cars2", only=("hand_size", "mode"), required=("hand_size",),
                                     hand_size=range(1, 4), mode=("partners",)))
    assert set(narrowed) <= {"hand_size", "mode"} and 1 <= narrowed["hand_size"] <= 3
    assert narrowed.get("mode", "partners") == "partners" and (players % 2 == 0 or "mode" not in narrowed)
