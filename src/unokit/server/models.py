"""The protocol of ``unokit serve`` as pydantic models: every message and every HTTP body of
``docs/protocol.md``, whose *Schemas* section is these models' JSON Schema.

The server checks what it receives with these models (:data:`CLIENT_MESSAGE`,
:class:`CreateRoom`, :class:`JoinRoom`); a message that does not fit is refused with the
error ``malformed``. What it sends fits the server's models (``tests/test_server_schema.py``
checks every message of the protocol tests against them), and every model refuses a field it
does not know, so the schemas are exact. ``python -m unokit.server.models`` prints the
*Schemas* section; ``python -m unokit.server.models --update docs/protocol.md`` rewrites it.

>>> CLIENT_MESSAGE.validate_json('{"type": "act", "action": "R7", "version": 12}')
Act(type='act', action='R7', version=12)
>>> sorted(SERVER_MODELS)[:3]
['chat', 'chat_history', 'error']
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, WithJsonSchema, create_model

from ..bots.registry import BOTS
from ..core.actions import MAX_SEATS
from ..core.editions import RECORDS
from ..core.options import OPTION_SPECS, OptionSpec

PROTOCOL_VERSION: Final = 2
"""The version of the protocol of ``docs/protocol.md`` (*Versions* says what each one adds), in
``GET /api/health`` and ``GET /api/config``."""
MAX_MESSAGE_BYTES: Final = 4096
"""The largest message a client may send, and the largest HTTP body (``too_large`` above)."""
MAX_NAME: Final = 24
NAME_RULE: Final = (f"{{who}} display name, 1 to {MAX_NAME} characters; it must show a letter or sign (not "
                    "only spaces, format characters or blank signs such as U+3164 or U+2800). It is kept "
                    "trimmed, runs of spaces made one, in Unicode's NFC form")
MAX_CHAT: Final = 200
MAX_BOT_DELAY: Final = 10.0
MAX_REACTION: Final = 10.0
MAX_BETWEEN_ROUNDS: Final = 600.0
MIN_TURN_TIMEOUT: Final = 1.0
MAX_TURN_TIMEOUT: Final = 3600.0
DEFAULT_BOT: Final = "heuristic"
DEFAULT_BOT_DELAY: Final = 1.0
DEFAULT_REACTION: Final = 2.5
DEFAULT_BETWEEN_ROUNDS: Final = 10.0
DEFAULT_FORGET_UNO: Final = 0.3

ERROR_CODES: Final = ("malformed", "too_large", "stale", "illegal", "unauthorized", "rate_limited",
                      "not_found", "server_error")
"""Every error code: the six of the game's refusals, then ``not_found`` (no such room, or a
closed one) and ``server_error`` (the database refused a change; nothing changed)."""

ErrorCode = Literal["malformed", "too_large", "stale", "illegal", "unauthorized", "rate_limited", "not_found",
                    "server_error"]
Awaiting = Literal["play", "drawn", "respond", "color", "swap", "round_over", "game_over"]
RoomStatus = Literal["lobby", "playing", "round_over", "game_over", "closed"]
SeatKind = Literal["human", "open", "bot"]
ClosedReason = Literal["format", "empty", "idle"]


def _one_of(kind: str, names: Any) -> Any:
    allowed = tuple(names)

    def check(value: str) -> str:
        if value not in allowed:
            raise ValueError(f"{kind} must be one of {', '.join(allowed)}")
        return value

    return check


BotName = Annotated[str, AfterValidator(_one_of("a bot", sorted(BOTS))),
                    WithJsonSchema({"type": "string", "enum": sorted(BOTS)})]
"""A server bot: ``heuristic``, ``random`` or ``strong`` (the registry's names)."""
EditionName = Annotated[str, AfterValidator(_one_of("edition", RECORDS)),
                        WithJsonSchema({"type": "string", "enum": list(RECORDS)})]
CardCode = Annotated[str, Field(pattern=r"^(?:[RYGB](?:[0-9]|S|R|\+2)|W|W\+4|WM|WP)$",
                                description="a card in notation: R7, GS (Skip), BR (Reverse), Y+2, W, "
                                            "W+4, WM (Mater), WP (Agent P)")]
Seat = Annotated[int, Field(ge=0, lt=MAX_SEATS)]
Version = Annotated[int, Field(ge=0, description="the match's version: +1 for each deal and each action")]
Score = int | float


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


# ---------------------------------------------------------------------- the rule book's options


class OptionsModel(_Model):
    """The match options of ``docs/rules.md`` by name; each one left out keeps its default."""


def _option_field(spec: OptionSpec) -> tuple[Any, Any]:
    """``spec`` as a pydantic field: its type, its bounds, its default and its description."""
    kind: Any
    if spec.kind == "choice":
        kind = Literal[spec.choices]
    elif spec.kind == "bool":
        kind = bool
    else:
        number = int if spec.kind == "int" else Score
        kind = Annotated[number, Field(ge=spec.minimum, gt=spec.exclusive_minimum, le=spec.maximum)]
    return kind, Field(spec.default, description=spec.description)


def options_model(specs: Sequence[OptionSpec] = OPTION_SPECS,
                  name: str = "RoomOptions") -> type[OptionsModel]:
    """The model of the options ``specs`` (by default every option: :data:`RoomOptions`), one
    field for each, in their order."""
    fields: dict[str, Any] = {spec.name: _option_field(spec) for spec in specs}
    return create_model(name, __base__=OptionsModel, __module__=__name__, __doc__=OptionsModel.__doc__,
                        **fields)


if TYPE_CHECKING:
    RoomOptions = OptionsModel
else:
    RoomOptions = options_model()
    """The match options of :data:`~unokit.core.options.OPTION_SPECS`, as a room is made with them."""


# ---------------------------------------------------------------------- HTTP


class Deal(_Model):
    """A stacked first round (``--dev``): as the conformance scenarios give one."""

    dealer: Seat = 0
    hands: list[list[CardCode]]
    discard: CardCode
    draw: list[CardCode] = Field(default_factory=list, description="the draw pile, top card first")


class CreateRoom(_Model):
    """``POST /api/rooms``: the creator's name and the room's settings."""

    name: str = Field(min_length=1, max_length=MAX_NAME, description=NAME_RULE.format(who="the creator's"))
    edition: EditionName = "classic"
    players: Annotated[int, Field(ge=2, le=MAX_SEATS)] | None = Field(
        None, description="2 to 10; may be left out when bots is given (then 1 + len(bots)); default 4")
    bots: list[BotName | None] | None = Field(
        None, description="seats 1 to players-1: a bot's name, or null for a person's seat; "
                          "default: fill_bot on every seat")
    options: RoomOptions = Field(default_factory=RoomOptions)
    public: bool = Field(False, description="listed by GET /api/rooms")
    bot_delay: Annotated[float, Field(ge=0, le=MAX_BOT_DELAY)] = Field(
        DEFAULT_BOT_DELAY, description="seconds a server bot waits before it acts")
    reaction: Annotated[float, Field(ge=0, le=MAX_REACTION)] = Field(
        DEFAULT_REACTION, description="seconds no server bot acts while a person may call UNO or "
                                      "catch a bot, and before a bot plays for a person away")
    between_rounds: Annotated[float, Field(ge=0, le=MAX_BETWEEN_ROUNDS)] = Field(
        DEFAULT_BETWEEN_ROUNDS, description="seconds from a round's end to the next deal, "
                                            "unless every connected person is ready sooner")
    turn_timeout: Annotated[float, Field(ge=MIN_TURN_TIMEOUT, le=MAX_TURN_TIMEOUT)] | None = Field(
        None, description="seconds a person may think on their own decision; then a bot plays for "
                          "them until they act again (null: no limit)")
    fill_bot: BotName = Field(DEFAULT_BOT, description="the bot given a person's seat left empty at the "
                                                       "start, or left during the match")
    forget_uno: Annotated[float, Field(ge=0, le=1)] = Field(
        DEFAULT_FORGET_UNO, description="the chance that a server bot forgets to call UNO")
    seed: Annotated[int, Field(ge=0, lt=2**63)] | None = Field(
        None, description="--dev only: the match's seed (deal and bots)")
    deal: Deal | None = Field(None, description="--dev only: the first round's cards")


class CreatedRoom(_Model):
    """The answer to ``POST /api/rooms`` (201): the creator sits at ``seat`` 0, as host."""

    code: str
    seat: Seat
    token: str = Field(description="the seat's secret: send it in hello, and as Authorization: Bearer")
    link: str = Field(description="the room's page, /r/{code}")


class JoinRoom(_Model):
    """``POST /api/rooms/{code}/join``."""

    name: str = Field(min_length=1, max_length=MAX_NAME, description=NAME_RULE.format(who="the person's"))
    seat: Seat | None = Field(None, description="an open seat to take (default: the first open one)")


class JoinedRoom(_Model):
    """The answer to ``POST /api/rooms/{code}/join``."""

    code: str
    seat: Seat
    token: str
    link: str


class Started(_Model):
    """The answer to ``POST /api/rooms/{code}/start``."""

    ok: Literal[True]


class Health(_Model):
    """The answer to ``GET /api/health``."""

    ok: Literal[True]
    version: str = Field(description="unokit's version")
    protocol: int = Field(description="the version of the protocol (PROTOCOL_VERSION)")
    rooms: int = Field(description="the open rooms this process holds")
    server: str | None = Field(description="this process's id among the processes of a PostgreSQL "
                                           "database; null on SQLite (one process)")
    owned: int = Field(description="the rooms whose bots and timers this process runs")


# ---------------------------------------------------------------------- the words for events

NarrationValue = Annotated[Any, Field(description="a JSON literal, a reference (e.seat: the event's field, "
                                                  "s.facing: the state, r.wild: a rule's value, i: the "
                                                  "index of each) or an operation [op, value, ...]")]
NarrationSet = tuple[str, NarrationValue]
WordKind = Literal["seat", "side", "sides", "card", "color", "number"]


class NarrationCase(_Model):
    """One variant of a line: said when ``when`` holds (always without it)."""

    when: NarrationValue = None
    say: str | Annotated[list[str], Field(min_length=2, max_length=2)] | None = Field(
        description="a message id, a [singular, plural] pair chosen by count, or null: nothing said")
    count: NarrationValue = None
    fill: dict[str, tuple[WordKind, NarrationValue]] = Field(
        default_factory=dict, description="each field of the message: [word, value]")
    set: list[NarrationSet] = Field(default_factory=list, description="the state changed once said")


class NarrationLines(_Model):
    """At most one line: the first case whose condition holds; one per item of ``each``."""

    each: NarrationValue = None
    cases: list[NarrationCase]


class NarrationEvent(_Model):
    """How one event type is told: the state set ``before``, the ``lines``, the state set ``after``."""

    before: list[NarrationSet] = Field(default_factory=list)
    lines: list[NarrationLines]
    after: list[NarrationSet] = Field(default_factory=list)


class NarrationWords(_Model):
    """The messages that name a seat (``{n}``) and a team (``{a}``, ``{b}``), and the separator of
    a list of sides."""

    seat: str
    team: str
    separator: str


class NarrationRules(_Model):
    """What the conditions read from the rules."""

    blocked_after: int = Field(description="the turns without a card played from a hand that block a round")
    left: int = Field(description="the step from a seat to the seat on its left")
    wild: list[CardCode] = Field(description="the wild cards")
    card_color: dict[str, Annotated[int, Field(ge=0, le=3)]] = Field(
        description="each coloured card's colour")
    partners: dict[str, list[list[Seat]]] = Field(
        description="by the number of players, the seats of each team with mode: partners")


class Narration(_Model):
    """``GET /api/narration``: the words for every event, as data for a client to interpret
    (``unokit.text.events``; the terminal's log reads the same table)."""

    words: NarrationWords
    state: dict[str, NarrationValue] = Field(description="what the teller remembers, and its starting values")
    events: dict[str, NarrationEvent] = Field(description="by event type")
    rules: NarrationRules


class EditionInfo(_Model):
    """An edition, as ``GET /api/config`` lists it."""

    name: EditionName
    title: str = Field(description="the name on its box (a brand name, not translated)")
    special: CardCode | None = Field(description="the card it adds to the classic deck, if any")
    special_name: str | None = Field(description="the message id of that card's name, translated with "
                                                 "the edition's name as context")


class BotChoice(_Model):
    """A bot a seat may be given, in the order a client offers them."""

    name: BotName
    label: str | None = Field(description="the message id of its name as a choice (Easy bot); null "
                                          "for a bot without one")
    elo: int | None = Field(description="its rating: Elo with the random bot at 1000; null where none "
                                        "is measured")


class ConfigDefaults(_Model):
    """What a new room takes when ``POST /api/rooms`` leaves it out."""

    edition: EditionName
    players: int
    bot: BotName
    bot_delay: float
    reaction: float
    forget_uno: float
    between_rounds: float
    turn_timeout: float | None


class ConfigLimits(_Model):
    """The sizes and rates the server allows."""

    message_bytes: int
    name_chars: int
    chat_chars: int
    messages_per_second: int
    bot_delay_max: float
    reaction_max: float
    between_rounds_max: float
    turn_timeout_min: float
    turn_timeout_max: float
    chat_history: int = Field(description="the chat lines a room keeps and sends after hello")


class ConfigOption(_Model):
    """An option as the new-room form offers it (``GET /api/config``'s ``options``)."""

    type: Literal["choice", "bool", "int", "number"]
    default: str | bool | int | float
    group: Literal["match", "house"] = Field(description="the match's options, or the house rules")
    label: str = Field(description="the message id of the option's name, translated by the catalogues")
    choices: list[str] | None = Field(None, description="a choice's values, the default among them")
    choice_labels: dict[str, str] | None = Field(None, description="a choice's values' message ids, by value")
    min: int | None = Field(None, description="a number's least whole value")
    max: int | float | None = Field(None, description="a number's largest value")


class Config(_Model):
    """The answer to ``GET /api/config``: what a client needs before it makes or shows a room."""

    version: str = Field(description="the package's version")
    protocol: int = Field(description="the protocol's version")
    dev: bool
    languages: list[str]
    language_names: dict[str, str]
    editions: list[EditionInfo]
    bots: list[BotName] = Field(description="the bots a seat accepts by name, sorted")
    bot_choices: list[BotChoice]
    min_players: int
    max_players: int
    options: dict[str, ConfigOption] = Field(description="every option of docs/rules.md by name, in "
                                                         "the rules' order")
    defaults: ConfigDefaults
    limits: ConfigLimits


class SeatSummary(_Model):
    seat: Seat
    kind: SeatKind
    name: str | None
    connected: bool
    bot: BotName | None = None


class RoomSummary(_Model):
    """``GET /api/rooms/{code}``, and each room of ``GET /api/rooms``."""

    code: str
    status: RoomStatus
    edition: str
    players: int
    public: bool
    host_name: str | None
    seats: list[SeatSummary]
    open_seats: int
    closed_reason: ClosedReason | None


class ClosedRoomSummary(_Model):
    """``GET /api/rooms/{code}`` for a room closed since the server started."""

    code: str
    status: Literal["closed"]
    closed_reason: ClosedReason | None


class RoomList(_Model):
    """``GET /api/rooms``: the public rooms that are not closed, those in the lobby first."""

    rooms: list[RoomSummary]


# ---------------------------------------------------------------------- client to server


class Hello(_Model):
    """The first message on ``/ws/{code}``: take your seat (``token``) or watch (no token)."""

    type: Literal["hello"]
    token: Annotated[str, Field(max_length=200)] | None = None


class Act(_Model):
    """Take an action, chosen on the view of ``version``."""

    type: Literal["act"]
    action: Annotated[str, Field(min_length=1, max_length=40,
                                 description="in notation: R7, R7!, W=G, draw, pass, catch 2, ...")]
    version: Annotated[int, Field(ge=0)]


class Chat(_Model):
    """Say something to the room (seated only)."""

    type: Literal["chat"]
    text: str = Field(description=f"plain text, 1 to {MAX_CHAT} characters once trimmed")


class Ready(_Model):
    """Ready for the next round (``awaiting: round_over``)."""

    type: Literal["ready"]


class Kick(_Model):
    """The host frees another person's seat (in the lobby) or gives it to ``fill_bot``."""

    type: Literal["kick"]
    seat: Seat


class SetBot(_Model):
    """The host puts a bot at ``seat`` (a person there leaves it); ``null`` opens a bot's seat
    (in the lobby)."""

    type: Literal["bot"]
    seat: Seat
    bot: BotName | None


class Move(_Model):
    """The host swaps what sits at ``seat`` and at ``to`` (in the lobby)."""

    type: Literal["move"]
    seat: Seat
    to: Seat


class Leave(_Model):
    """Leave your seat for good (freed in the lobby, a bot takes it during a match)."""

    type: Literal["leave"]


class Rematch(_Model):
    """The host starts a new match in the room (after ``game_over``), the same seats."""

    type: Literal["rematch"]


class Back(_Model):
    """You are back: no bot plays for you any more (after ``turn_timeout`` passed, a bot plays
    for you until you act or say this)."""

    type: Literal["back"]


ClientMessage = Annotated[Hello | Act | Chat | Ready | Kick | SetBot | Move | Leave | Rematch | Back,
                          Field(discriminator="type")]
CLIENT_MESSAGE: Final = TypeAdapter[
    Hello | Act | Chat | Ready | Kick | SetBot | Move | Leave | Rematch | Back](ClientMessage)
CLIENT_TYPES: Final = ("hello", "act", "chat", "ready", "kick", "bot", "move", "leave", "rematch", "back")


# ---------------------------------------------------------------------- events


class RoundStarted(_Model):
    type: Literal["RoundStarted"]
    round_no: int
    dealer: Seat
    hand_sizes: list[int]
    hands: list[list[CardCode] | None] = Field(description="your own hand; the others null")


class TurnedUp(_Model):
    type: Literal["TurnedUp"]
    card: CardCode
    returned: bool


class Played(_Model):
    type: Literal["Played"]
    seat: Seat
    card: CardCode
    color: int = Field(description="the colour in play after it: 0 red, 1 yellow, 2 green, 3 blue")
    uno: bool
    jump_in: bool


class WrongCard(_Model):
    type: Literal["WrongCard"]
    seat: Seat
    card: CardCode


class Drew(_Model):
    type: Literal["Drew"]
    seat: Seat
    count: int
    cards: list[CardCode] | None = Field(description="null unless you drew them, or they came from "
                                                     "the discard pile")
    reason: Literal["turn", "draw_two", "wild_draw_four", "stack", "challenge", "caught", "penalty", "host",
                    "agent_p", "first_card"]
    source: Literal["draw_pile", "discard"]


class Reshuffled(_Model):
    type: Literal["Reshuffled"]
    draw_size: int


class Passed(_Model):
    type: Literal["Passed"]
    seat: Seat


class Skipped(_Model):
    type: Literal["Skipped"]
    seat: Seat


class DirectionChanged(_Model):
    type: Literal["DirectionChanged"]
    direction: Literal[1, -1]


class ColorNamed(_Model):
    type: Literal["ColorNamed"]
    seat: Seat
    color: int


class DrawPending(_Model):
    type: Literal["DrawPending"]
    seat: Seat
    count: int
    attacker: Seat


class Accepted(_Model):
    type: Literal["Accepted"]
    seat: Seat
    count: int


class Challenged(_Model):
    type: Literal["Challenged"]
    challenger: Seat
    attacker: Seat
    won: bool
    hand: list[CardCode] | None = Field(description="the attacker's hand, to the challenger only")


class AgentPAnswered(_Model):
    type: Literal["AgentPAnswered"]
    seat: Seat
    attacker: Seat
    count: int


class UnoCalled(_Model):
    type: Literal["UnoCalled"]
    seat: Seat


class UnoMissed(_Model):
    type: Literal["UnoMissed"]
    seat: Seat


class Caught(_Model):
    type: Literal["Caught"]
    catcher: Seat
    seat: Seat


class HostPenalty(_Model):
    type: Literal["HostPenalty"]
    seat: Seat


class Peeked(_Model):
    type: Literal["Peeked"]
    seat: Seat
    shown: dict[str, list[CardCode]] | None = Field(description="to the Mater player only")


class HandsSwapped(_Model):
    type: Literal["HandsSwapped"]
    seat: Seat
    target: Seat
    hands: list[list[CardCode]] | None = Field(description="to those two seats only")


class HandsRotated(_Model):
    type: Literal["HandsRotated"]
    direction: Literal[1, -1]
    hands: list[list[CardCode] | None] = Field(description="yours only")


class RoundEnded(_Model):
    type: Literal["RoundEnded"]
    winner: int
    points: list[int]
    scores: list[Score]
    eliminated: list[bool]
    blocked: bool


class GameEnded(_Model):
    type: Literal["GameEnded"]
    winners: list[int]


EVENT_MODELS: Final[tuple[type[_Model], ...]] = (
    RoundStarted, TurnedUp, Played, WrongCard, Drew, Reshuffled, Passed, Skipped, DirectionChanged,
    ColorNamed, DrawPending, Accepted, Challenged, AgentPAnswered, UnoCalled, UnoMissed, Caught, HostPenalty,
    Peeked, HandsSwapped, HandsRotated, RoundEnded, GameEnded,
)
"""One model per event of :data:`unokit.core.events.EVENT_TYPES`, in the same order."""

Event = Annotated[
    RoundStarted | TurnedUp | Played | WrongCard | Drew | Reshuffled | Passed | Skipped | DirectionChanged
    | ColorNamed | DrawPending | Accepted | Challenged | AgentPAnswered | UnoCalled | UnoMissed | Caught
    | HostPenalty | Peeked | HandsSwapped | HandsRotated | RoundEnded | GameEnded,
    Field(discriminator="type")]


# ---------------------------------------------------------------------- server to client


class RoomSettings(_Model):
    edition: str
    players: int
    options: RoomOptions = Field(description="every option, with its value")
    bot_delay: float
    forget_uno: float
    fill_bot: BotName
    public: bool
    between_rounds: float
    turn_timeout: float | None
    reaction: float = Field(description="seconds no server bot acts while a person may call UNO or "
                                        "catch a bot, and before a bot plays for a person away")


class SeatInfo(_Model):
    seat: Seat
    kind: SeatKind = Field(description="human: a person sits there; open: waiting for a person (lobby); "
                                       "bot: a server bot")
    name: str | None = Field(description="the person's display name (null for a bot or an open seat)")
    bot: BotName | None
    connected: bool = Field(description="a connection holds this seat now")
    away: bool = Field(description="a person played by a bot now: disconnected, or silent for turn_timeout "
                                   "until they act again")
    ready: bool = Field(description="ready for the next round (status round_over)")


class RoomMessage(_Model):
    """The room: sent after hello, and whenever its seats, settings or status change."""

    type: Literal["room"]
    code: str
    status: RoomStatus
    you: Seat | None = Field(description="your seat; null for a spectator")
    host: Seat | None
    settings: RoomSettings
    seats: list[SeatInfo]
    spectators: int
    closed_reason: ClosedReason | None


class EventsMessage(_Model):
    """What happened, as your connection may see it; always followed by a ``state``."""

    type: Literal["events"]
    version: Version
    replay: bool = Field(description="true once after hello: the current round's events so far "
                                     "(show them, do not animate them)")
    events: list[Event]


class View(_Model):
    """The match as one connection may see it now."""

    seat: Seat | None = Field(description="your seat; null for a spectator")
    names: list[str | None] = Field(description="each seat's person's name (null: a bot)")
    hand: list[CardCode] = Field(description="your cards (empty for a spectator)")
    hand_sizes: list[int]
    top: CardCode
    color: int = Field(description="the colour in play: 0 red, 1 yellow, 2 green, 3 blue")
    direction: Literal[1, -1] = Field(description="1: to the left (seat + 1), -1: to the right")
    turn: Seat | None = Field(description="the seat on turn; null when nobody is to act")
    awaiting: Awaiting
    legal: list[str] = Field(description="your legal actions now, in notation, in and out of turn "
                                         "(empty for a spectator, and between rounds)")
    draw_size: int
    seen: dict[str, list[CardCode]] = Field(description="hands shown to you (a Mater peek, a challenge), "
                                                        "by seat")
    eliminated: list[bool]
    scores: list[Score] = Field(description="the match totals, per side (per team with partners)")
    target: Score
    round: int = Field(description="the round's number, from 0")
    dealer: Seat
    edition: str
    players: int
    teams: int = Field(description="the number of teams with partners (seats k and k + teams), else 0")
    sides: list[int] = Field(description="each seat's side: its team with partners, else the seat itself")
    order: list[Seat] = Field(description="the seats still in the match in the order they play, from the "
                                          "seat on turn (from seat 0 when nobody is on turn)")
    next: Seat | None = Field(description="the seat that plays after the seat on turn; null when nobody "
                                          "is on turn")
    around: list[Seat] = Field(description="the other seats in the order play goes from yours, those out of "
                                           "the match included (a spectator: every seat, from seat 0)")
    discard: list[CardCode] = Field(description="the discard pile, bottom first")
    pending: int = Field(description="the cards a draw card waiting for an answer would make the seat on "
                                     "turn draw")
    attacker: Seat | None
    drawn: CardCode | None = Field(description="the card you just drew (awaiting drawn)")
    owed: list[bool] = Field(description="seats down to one card that have not called UNO")
    catchable: list[Seat] = Field(description="seats that may be caught now")
    idle_turns: int
    round_winner: int | None = Field(description="the side that won the round, once it is over")
    winners: list[int] = Field(description="the sides that won the match, once it is over")
    options: RoomOptions


class StateMessage(_Model):
    """The match as your connection may see it now."""

    type: Literal["state"]
    version: Version
    deadline: float | None = Field(description="when the server plays for the person on turn "
                                               "(turn_timeout; for a person away, the bot's next "
                                               "move), in seconds since the epoch; else null")
    view: View


class ChatMessage(_Model):
    """A chat line, to everyone in the room (plain text: show it as text)."""

    type: Literal["chat"]
    id: int
    seat: Seat
    name: str
    text: str
    time: float


class ChatHistory(_Model):
    """The room's last 100 chat lines, after hello."""

    type: Literal["chat_history"]
    messages: list[ChatMessage]


class Left(_Model):
    """Your seat is gone (you left, the host kicked you, the room closed); the socket closes."""

    type: Literal["left"]
    reason: Literal["left", "kicked", "closed"]


class Error(_Model):
    """A refusal: nothing changed and the connection stays usable. Also the body of every
    HTTP error (4xx, and 500 for ``server_error``)."""

    type: Literal["error"]
    code: ErrorCode
    message: str = Field(description="English, for developers; the client words the code itself")


ServerMessage = Annotated[
    RoomMessage | EventsMessage | StateMessage | ChatMessage | ChatHistory | Left | Error,
    Field(discriminator="type")]
SERVER_MESSAGE: Final = TypeAdapter[
    RoomMessage | EventsMessage | StateMessage | ChatMessage | ChatHistory | Left | Error](ServerMessage)

SERVER_MODELS: Final[dict[str, type[_Model]]] = {
    "room": RoomMessage, "events": EventsMessage, "state": StateMessage, "chat": ChatMessage,
    "chat_history": ChatHistory, "left": Left, "error": Error,
}
CLIENT_MODELS: Final[dict[str, type[_Model]]] = {
    "hello": Hello, "act": Act, "chat": Chat, "ready": Ready, "kick": Kick, "bot": SetBot, "move": Move,
    "leave": Leave, "rematch": Rematch, "back": Back,
}
HTTP_MODELS: Final[dict[str, type[_Model]]] = {
    "POST /api/rooms (body)": CreateRoom, "POST /api/rooms (201)": CreatedRoom,
    "POST /api/rooms/{code}/join (body)": JoinRoom, "POST /api/rooms/{code}/join (200)": JoinedRoom,
    "POST /api/rooms/{code}/start (200)": Started, "GET /api/health (200)": Health,
    "GET /api/config (200)": Config,
    "GET /api/rooms (200)": RoomList, "GET /api/rooms/{code} (200)": RoomSummary,
    "GET /api/rooms/{code} (200, closed)": ClosedRoomSummary, "GET /api/narration (200)": Narration,
    "every HTTP error (4xx, 500)": Error,
}


# ---------------------------------------------------------------------- the schemas, for docs/protocol.md

BEGIN: Final = "<!-- schemas: generated by `python -m unokit.server.models --update docs/protocol.md` -->"
END: Final = "<!-- schemas: end -->"


def request_body(model: type[BaseModel]) -> dict[str, Any]:
    """The OpenAPI ``requestBody`` of an HTTP body checked by ``model``: its JSON Schema,
    every ``$ref`` to its ``$defs`` written in place (so that ``/openapi.json`` holds it whole)."""
    schema = model.model_json_schema()
    defs = schema.pop("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                rest = {k: v for k, v in node.items() if k != "$ref"}
                return inline({**defs[ref.removeprefix("#/$defs/")], **rest})
            return {k: inline(v) for k, v in node.items()}
        if isinstance(node, list):
            return [inline(v) for v in node]
        return node

    return {"required": True, "content": {"application/json": {"schema": inline(schema)}}}


def _schema_block(title: str, model: type[_Model]) -> str:
    schema = json.dumps(model.model_json_schema(), indent=1, ensure_ascii=False, sort_keys=False)
    return f"#### {title}: `{model.__name__}`\n\n```json\n{schema}\n```\n"


def schema_markdown() -> str:
    """The *Schemas* section of ``docs/protocol.md``, between :data:`BEGIN` and :data:`END`."""
    parts = [BEGIN, ""]
    parts.append("### HTTP bodies\n")
    parts += [_schema_block(f"`{where}`", model) for where, model in HTTP_MODELS.items()]
    parts.append("### Client → server\n")
    parts += [_schema_block(f"`{kind}`", model) for kind, model in CLIENT_MODELS.items()]
    parts.append("### Server → client\n")
    parts += [_schema_block(f"`{kind}`", model) for kind, model in SERVER_MODELS.items()]
    parts.append(END)
    return "\n".join(parts) + "\n"


def update(path: str) -> bool:
    """Rewrite the *Schemas* section of the file ``path``; returns whether it changed."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    start, end = text.index(BEGIN), text.index(END) + len(END) + 1
    new = text[:start] + schema_markdown() + text[end:]
    if new != text:
        with open(path, "w", encoding="utf-8") as f:
            f.write(new)
    return new != text


def main(argv: list[str]) -> int:
    if argv[:1] == ["--update"] and len(argv) == 2:
        print("updated" if update(argv[1]) else "up to date", argv[1])
        return 0
    if argv:
        print("usage: python -m unokit.server.models [--update docs/protocol.md]", file=sys.stderr)
        return 2
    sys.stdout.write(schema_markdown())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
