"""Who controls each seat: people and bots, one entry per player.

A *player* is a person or a bot; a *seat* is the engine's decision-maker
(one player may hold several). :meth:`Game.seat_owners` says which player holds
each seat: a solo player of a game of three seats or more holds them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from subtable.bots.base import Bot, bot_names, make_bot, parse_bot_spec
from subtable.bots.levels import resolve_level
from subtable.core.errors import SubtableError
from subtable.core.game import Game
from subtable.core.rng import Rng

HUMAN = "human"
#: ``bot`` means the strongest registered bot, in this order of preference.
BEST_BOTS = ("ismcts", "heuristic", "random")
#: bots at the table play with their own defaults: an iteration budget, never a clock, so
#: that a seed replays the same game on any machine. A seat may ask for a time limit
#: (``--seats human,ismcts:ms=5000``); the seat's spec, and so the record, then says so.
TABLE_DEFAULTS: dict[str, dict[str, Any]] = {}
_BOT_SALT = 0x7AB1_E5EA_7000_0001


class SeatError(SubtableError):
    """A ``--seats`` list that does not fit the game."""

    code = "bad_seats"


def can_play(name: str, game: Game[Any]) -> bool:
    """Whether bot ``name`` can take a seat at ``game`` (some bots know only some games)."""
    try:
        make_bot(name, game, 0, Rng(0))
    except (SubtableError, ImportError):
        return False
    return True


def best_bot(game: Game[Any]) -> str:
    """What ``bot`` means at ``game``: the best registered of :data:`BEST_BOTS` that plays it."""
    names = bot_names()
    for name in BEST_BOTS:
        if name in names and can_play(name, game):
            return name
    return "random"


def parse_seats(text: str | None, game: Game[Any]) -> list[str]:
    """One controller name per player: ``human`` or a registered bot (a level, ``strong``,
    stands for its game's bot spec).

    ``None`` gives the default table: player 1 a person, the others ``bot``.
    """
    players = game.num_players
    if text is None:
        entries = [HUMAN] + ["bot"] * (players - 1)
    else:
        # the bot's name is case-blind; its parameters (an agent's file path) keep their case
        entries = [_lower_name(e.strip()) for e in text.split(",")]
    if len(entries) != players:
        raise SeatError(
            f"--seats lists {len(entries)} players, the game has {players}",
            code="seat_count",
            params={"given": len(entries), "players": players},
        )
    out = []
    known = bot_names()
    for entry in entries:
        entry = resolve_level(entry, game)  # a level stands for its bot spec
        name = entry.split(":")[0].strip()
        if entry == "bot":
            entry = best_bot(game)
        elif entry != HUMAN and name not in known:
            raise SeatError(
                f"unknown seat entry {entry!r}",
                code="unknown_seat",
                params={"entry": entry, "bots": known},
            )
        elif entry != HUMAN and ":" not in entry and not can_play(name, game):
            # (an entry with parameters, such as agent:path=FILE, is checked as a whole below)
            raise SeatError(
                f"bot {entry!r} cannot play this game",
                code="bot_cannot_play",
                params={"entry": entry, "bots": known},
            )
        if entry != HUMAN:
            table_bot(entry, game, 0, Rng(0))  # a bad parameter is refused before play
        out.append(entry)
    return out


def _lower_name(entry: str) -> str:
    name, sep, rest = entry.partition(":")
    return name.strip().lower() + sep + rest


def table_bot(spec: str, game: Game[Any], seat: int, rng: Rng) -> Bot:
    """Build the bot a seat entry names (``name`` or ``name:key=value:…``) for the table."""
    name, params = parse_bot_spec(spec)
    if not params:
        params = dict(TABLE_DEFAULTS.get(name, {}))
    return make_bot(name, game, seat, rng, **params)


@dataclass(slots=True)
class Seat:
    """One seat and who controls it."""

    seat: int
    player: int
    controller: str  # "human" or a bot name
    bot: Bot | None = None

    @property
    def human(self) -> bool:
        """Whether a person decides for this seat."""
        return self.bot is None


def build_seats(game: Game[Any], controllers: list[str], seed: int, salt: int = 0) -> list[Seat]:
    """A :class:`Seat` for each of ``game``'s seats, bots built with their own generators."""
    owners = game.seat_owners()
    rng = Rng(seed ^ _BOT_SALT ^ salt)
    seats = []
    for seat, player in enumerate(owners):
        name = controllers[player]
        bot_rng = Rng(rng.next64())
        bot = None if name == HUMAN else table_bot(name, game, seat, bot_rng)
        seats.append(Seat(seat, player, name, bot))
    return seats
