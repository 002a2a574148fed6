"""Red November at the terminal: board, names, narration, reasons and reminders."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from subtable.core.actions import Action
from subtable.core.errors import IllegalActionError
from subtable.core.events import Event
from subtable.games.red_november import rules
from subtable.games.red_november.actions import ACTION_KINDS, FIX_OF_KIND, Kind, RNAction
from subtable.games.red_november.components import (
    FIX_KINDS,
    SEA,
    Components,
    ItemKind,
    default_components,
)
from subtable.i18n import Translator, translator
from subtable.ui.games.common import core_why, headline, style_for
from subtable.ui.plain import plain, shown

#: reason codes told apart by the action's kind (``rn.why.wrong_room.<variant>``)
WHY_VARIANTS = ("wrong_room",)
#: the choices an event may ask for (``pending.choice`` in the view)
CHOICES = ("fire_spreads", "blocked_hatch", "discard")
#: the columns of the gnomes' table (``rn.board.col.<name>``)
GNOME_COLUMNS = ("gnome", "player", "room", "keeper", "intoxication", "hand", "status")
#: event parameters that name a gnome
_GNOME_PARAMS = ("gnome", "partner", "target", "chooser", "winner")


class _FixRoll(NamedTuple):
    """The die roll of a fix-it action: its chance, the roll it needs, its items' bonus,
    and the Destruction token it races (``too_late``: time is already past it)."""

    chance: Fraction
    target: int
    bonus: int
    token: str
    too_late: bool


class RedNovemberUI:
    """The :class:`~subtable.ui.games.base.GameUI` of Red November."""

    name = "red-november"

    def __init__(self, components: Components | None = None) -> None:
        self.c = components or default_components()

    # -- names ---------------------------------------------------------------------
    def seat_name(self, seat: int, tr: Translator) -> str:
        """``Gnome 2``."""
        return tr("rn.gnome", n=seat + 1)

    def short(self, seat: int, tr: Translator) -> str:
        """``G2``."""
        return tr("rn.gnome.short", n=seat + 1)

    def room(self, room: int, tr: Translator) -> str:
        """``Engine Room (1)``, ``room 3`` or ``Sea``."""
        if room == SEA:
            return tr("rn.room.sea")
        slug = self.c.room_names.get(room, "")
        if slug:
            return tr("rn.room.named", name=tr(f"rn.room.{slug}"), n=room)
        return tr("rn.room.number", n=room)

    def space(self, room: int, tr: Translator) -> str:
        """A room number or the sea, short (``5``, ``sea``)."""
        return tr("rn.board.sea_short") if room == SEA else str(room)

    def item(self, kind: str, tr: Translator) -> str:
        """An item's name."""
        return tr(f"rn.item.{kind}")

    def items(self, kinds: list[str] | dict[str, int], tr: Translator) -> str:
        """``Grog ×2, Crowbar``."""
        counts = Counter(kinds)
        parts = [
            self.item(k, tr) if n == 1 else tr("rn.item.count", item=self.item(k, tr), n=n)
            for k, n in counts.items()
        ]
        return tr.join(parts)

    def card(self, kind: str, tr: Translator) -> str:
        """An event card's title."""
        return tr(f"rn.card.{kind}")

    def token(self, name: str, tr: Translator) -> str:
        """A Destruction token's name (``Crushed!``)."""
        return tr(f"rn.token.{name}")

    def track(self, name: str, tr: Translator) -> str:
        """A Disaster Track's name."""
        return tr(f"rn.track.{name}")

    def fix(self, name: str, tr: Translator) -> str:
        """A fix-it action's name (``Fix Engine``)."""
        return tr(f"rn.fix.{name}")

    @staticmethod
    def hatch(pair: list[int] | tuple[int, int]) -> str:
        """``4-5``."""
        return f"{pair[0]}-{pair[1]}"

    # -- actions -------------------------------------------------------------------
    def action_label(self, action: Action, tr: Translator) -> str:
        """What an action does, in words (``rn.act.<kind>``)."""
        assert isinstance(action, RNAction)
        k = action.kind
        if k == Kind.DRAW:
            return tr.plural("rn.act.draw", "rn.act.draw.plural", action.minutes)
        params: dict[str, Any] = {
            "minutes": tr("unit.min", n=action.minutes),
            "hatch": action.label,
        }
        if k in (Kind.MOVE, Kind.OPEN, Kind.SPREAD):
            params["room"] = self.room(action.target, tr)
        elif k in (Kind.USE, Kind.GIVE, Kind.DISCARD):
            params["item"] = self.item(self.c.items[action.target].kind, tr)
        elif k in (Kind.TRADE, Kind.ATTACK):
            params["gnome"] = self.seat_name(action.target, tr)
        elif k in FIX_OF_KIND:
            params["fix"] = self.fix(FIX_OF_KIND[k], tr)
        return tr(f"rn.act.{k.name.lower()}", **params)

    def public_label(self, form: str, tr: Translator) -> str:
        """What the other seats read of a private move (``rn.act.public.<form>``)."""
        return tr(f"rn.act.public.{form}")

    # -- hints and card texts ------------------------------------------------------
    def action_hint(self, action: Action, view: dict[str, Any], tr: Translator) -> str | None:
        """A fix-it action's exact chance of success; what an item gives, or that it gives
        nothing now."""
        assert isinstance(action, RNAction)
        hint: str | None = None
        if action.kind in FIX_OF_KIND and view.get("ghost") is not None:
            hint = self._fix_hint(action, view, tr)
        elif action.kind == Kind.USE:
            hint = self._use_hint(self.c.items[action.target], view, tr)
        if action.kind in ACTION_KINDS and action.kind != Kind.EXTINGUISH and _heroic(view):
            death = tr("rn.hint.heroic_sacrifice")
            hint = death if hint is None else f"{hint} · {death}"
        return hint

    def odds(self, action: Action, view: dict[str, Any]) -> float | None:
        """A fix-it action's exact chance of success (0 once time is past its token)."""
        assert isinstance(action, RNAction)
        if action.kind not in FIX_OF_KIND or view.get("ghost") is None:
            return None
        return float(self._fix_roll(action, view).chance)

    def _fix_hint(self, action: RNAction, view: dict[str, Any], tr: Translator) -> str:
        fix = self._fix_roll(action, view)
        if fix.too_late:
            return tr("rn.hint.too_late", token=self.token(fix.token, tr))
        percent = int(fix.chance * 100)  # a tenth of a d10: exact
        if fix.bonus:
            return tr("rn.hint.chance.bonus", percent=percent, target=fix.target, bonus=fix.bonus)
        return tr("rn.hint.chance", percent=percent, target=fix.target)

    def _fix_roll(self, action: RNAction, view: dict[str, Any]) -> _FixRoll:
        """The roll a fix-it action would make, as ``view`` shows the board."""
        fix = FIX_OF_KIND[action.kind]
        room = view["gnomes"][view["active"]]["room"]
        water = [0] * (SEA + 1)
        for row in view["rooms"]:
            water[row["room"]] = row["water"]
        penalty = rules.action_penalty(self.c, action.kind, water, room)
        bonus = int(view["this_turn"]["bonus"].get(fix, 0))
        repair = self.c.repairs.get(fix)
        token = self.c.tokens[repair.token] if repair is not None and repair.token >= 0 else ""
        place = view["tokens"].get(token) if token else None
        after = int(view["ghost"]) - action.minutes - penalty
        position = -1 if place is None else int(place)
        return _FixRoll(
            token=token,
            bonus=bonus,
            too_late=rules.too_late(position, after),
            chance=rules.fix_success_chance(
                action.minutes, bonus, token=position, ghost_after=after
            ),
            target=min(rules.DIE, rules.fix_target(action.minutes, bonus)),
        )

    def _use_hint(self, item: ItemKind, view: dict[str, Any], tr: Translator) -> str | None:
        if item.sober:
            level = view["gnomes"][view["active"]]["intoxication"]
            return tr("rn.hint.sober") if level else tr("rn.hint.useless.sober")
        fixes = [FIX_KINDS[i] for i, b in enumerate(item.bonus) if b]
        if not fixes:
            return None
        names = tr.join([self.fix(f, tr) for f in fixes])
        bonus = max(item.bonus)
        attack = item.kind == "crowbar" and bool(view["options"].get("crazed_gnomes"))
        if attack or any(self._needed(f, view) for f in fixes):
            return tr("rn.hint.bonus", bonus=bonus, fixes=names)
        return tr("rn.hint.useless.bonus", bonus=bonus, fixes=names)

    def _needed(self, fix: str, view: dict[str, Any]) -> bool:
        """Whether anything on the board calls for this fix-it action now."""
        if fix == "extinguish":
            return any(row["fire"] for row in view["rooms"])
        if fix == "pump":
            return any(row["water"] for row in view["rooms"])
        if fix == "unblock":
            return bool(view["blocked"])
        repair = self.c.repairs[fix]
        if repair.token >= 0 and view["tokens"].get(self.c.tokens[repair.token]) is not None:
            return True
        if repair.track >= 0:
            level = int(view["tracks"][self.c.tracks[repair.track]])
            return rules.track_after_repair(self.c, level) < level
        return False

    def card_text(self, word: str, tr: Translator) -> str | None:
        """The rules text of the item or event card ``word`` names (its notation, its
        name in ``tr``'s language or English, or a unique beginning of one), else ``None``."""
        found = self._cards(word, tr)
        if len(found) != 1:
            return None
        name, text, _ = found[0]
        return tr("ui.card_text", name=name, text=text)

    def card_names(self, word: str, tr: Translator) -> list[str]:
        """The names of every card ``word`` could mean (several when it is ambiguous)."""
        return [name for name, _, _ in self._cards(word, tr)]

    def _cards(self, word: str, tr: Translator) -> list[tuple[str, str, int]]:
        """``[(name, rules text, rank)]`` of the cards ``word`` names best: its name, else
        the beginning of a name, else the beginning of a word of a name (``manual``)."""
        key = _fold(word.removeprefix("use "))
        if not key:
            return []
        english = translator("en")
        found: list[tuple[str, str, int]] = []
        for item in self.c.items:
            kind = item.kind
            names = {_fold(kind), _fold(tr(f"rn.item.{kind}")), _fold(english(f"rn.item.{kind}"))}
            found += _match(key, names, tr(f"rn.item.{kind}"), tr(f"rn.item_text.{kind}"))
        for kind in dict.fromkeys(card.kind for card in self.c.events):
            names = {_fold(kind), _fold(tr(f"rn.card.{kind}")), _fold(english(f"rn.card.{kind}"))}
            found += _match(key, names, tr(f"rn.card.{kind}"), tr(f"rn.event_text.{kind}"))
        # ``fire`` is Fire, not Fire Spreads; ``pump`` is the Pump Manual
        best = max((rank for _, _, rank in found), default=0)
        return [f for f in found if f[2] == best]

    # -- why not -------------------------------------------------------------------
    def why(self, error: IllegalActionError, action: Action, tr: Translator) -> str:
        """Translate an :class:`IllegalActionError` from its code and params."""
        assert isinstance(action, RNAction)
        code, p = error.code, error.params
        core = core_why(error, tr, self.seat_name)
        if core is not None:
            return core
        names: dict[str, Any] = {}
        for key in ("room", "to"):
            if isinstance(p.get(key), int):
                names[key] = self.room(p[key], tr)
        if "gnome" in p:
            names["gnome"] = self.seat_name(p["gnome"], tr)
        if "item" in p:
            names["item"] = self.item(p["item"], tr)
        if code == "wrong_phase":
            return tr("rn.why.wrong_phase", waiting=tr(f"rn.waiting.{p.get('phase', 'over')}"))
        if code in WHY_VARIANTS:
            if action.kind == Kind.UNBLOCK:
                return tr("rn.why.wrong_room.unblock", hatch=action.label, **names)
            if action.kind == Kind.DRAW:
                return tr(
                    "rn.why.wrong_room.draw",
                    stores=self.room(self.c.stores_room, tr),
                    cabin=self.room(self.c.cabin_room, tr),
                )
            return tr(
                "rn.why.wrong_room.repair", fix=self.fix(FIX_OF_KIND[action.kind], tr), **names
            )
        if code == "no_item" and "gnome" not in p:
            return tr("rn.why.no_item.you", **names)
        if "choices" in p:
            names["choices"] = ", ".join(self.space(r, tr) for r in p["choices"])
        if code == "not_blocked":
            return tr("rn.why.not_blocked", hatch=action.label)
        if code == "too_early":
            return tr("rn.why.too_early", space=p.get("space"), limit=self.c.abandon_below)
        if code == "not_enough_cards":
            left = int(p["left"])
            return tr.plural(
                "rn.why.not_enough_cards", "rn.why.not_enough_cards.plural", left, left=left
            )
        if code == "too_many":
            most = int(p["most"])
            return tr.plural("rn.why.too_many", "rn.why.too_many.plural", most, most=most)
        if not tr.has(f"rn.why.{code}"):
            return tr("ui.why.unknown_code", code=code, message=error.message)
        return tr(f"rn.why.{code}", **{**p, **names})

    def advice_reason(self, key: str, params: dict[str, Any], tr: Translator) -> str:
        """One line of why the expert advises an option (``rn.advice.<key>``, the keys of
        :mod:`subtable.bots.red_november.advice`)."""
        names = self._names(params, tr)
        if "fix" in params:
            names["fix"] = self.fix(params["fix"], tr)
        return tr(f"rn.advice.{key}", **names)

    def headline(self, events: Sequence[Event], tr: Translator) -> str | None:
        """What mattered most among a move's events (:data:`HEADLINES`), or ``None``."""
        return headline(self, events, tr, HEADLINES)

    # -- narration -----------------------------------------------------------------
    def narrate(self, event: Event, tr: Translator) -> str | None:
        """One log line for an event."""
        key, p = event.key, dict(event.params)
        special = _NARRATORS.get(key)
        if special is not None:
            return special(self, p, tr)
        if not tr.has(f"rn.event.{key}"):
            return tr("ui.event.unknown", key=key)
        return tr(f"rn.event.{key}", **self._names(p, tr))

    def _names(self, p: dict[str, Any], tr: Translator) -> dict[str, Any]:
        """Event params with gnomes, rooms, items, cards … in words."""
        out = dict(p)
        for key in _GNOME_PARAMS:
            if isinstance(p.get(key), int):
                out[key] = self.seat_name(p[key], tr)
        for key in ("room", "to"):
            if isinstance(p.get(key), int):
                out[key] = self.room(p[key], tr)
        if "rooms" in p:
            out["rooms"] = tr.join([self.room(r, tr) for r in p["rooms"]])
        if "gnomes" in p:
            out["gnomes"] = tr.join([self.seat_name(g, tr) for g in p["gnomes"]])
        if "winners" in p:
            out["winners"] = tr.join([self.seat_name(g, tr) for g in p["winners"]])
        if "item" in p:
            out["item"] = self.item(p["item"], tr)
        if "items" in p:
            out["items"] = self.items(p["items"], tr)
        if "track" in p:
            out["track"] = self.track(p["track"], tr)
        if "token" in p:
            out["token"] = self.token(p["token"], tr)
        if "card" in p:
            out["card"] = self.card(p["card"], tr)
        if "hatch" in p:
            out["hatch"] = self.hatch(p["hatch"])
        if "minutes" in p:
            out["minutes"] = tr("unit.min", n=p["minutes"])
        return out

    def _fix_attempted(self, p: dict[str, Any], tr: Translator) -> str:
        names = self._names(p, tr)
        names["target"] = p["target"]  # the number to roll, not a gnome
        fix = self.fix(p["fix"], tr)
        if "hatch" in p:
            fix = f"{fix} {names['hatch']}"
        names["fix"] = fix
        names["penalty"] = (
            tr("rn.event.penalty", minutes=tr("unit.min", n=p["penalty"]))
            if p.get("penalty")
            else ""
        )
        if p.get("auto_fail"):
            return tr(
                "rn.event.fix_attempted.auto_fail", **names, token=self.token(p["auto_fail"], tr)
            )
        if p.get("success"):
            return tr("rn.event.fix_attempted.success", **names)
        return tr("rn.event.fix_attempted.failure", **names)

    def _faint_check(self, p: dict[str, Any], tr: Translator) -> str:
        """The Faint Check as a sentence: the card's dash, or its number against the level."""
        names = self._names(p, tr)
        if not p.get("number"):  # the dash (0): never faints
            return tr("rn.event.faint_check.dash", **names)
        if p.get("fainted"):
            return tr("rn.event.faint_check.fainted", **names)
        return tr("rn.event.faint_check.standing", **names)

    def _items_drawn(self, p: dict[str, Any], tr: Translator) -> str:
        names = self._names(p, tr)
        names["source"] = tr(f"rn.source.{p['source']}")
        count = int(p["count"])
        if "items" in p:
            return tr.plural(
                "rn.event.items_drawn.seen", "rn.event.items_drawn.seen.plural", count, **names
            )
        return tr.plural("rn.event.items_drawn", "rn.event.items_drawn.plural", count, **names)

    def _item_given(self, p: dict[str, Any], tr: Translator) -> str:
        names = self._names(p, tr)
        names["to"] = self.seat_name(p["to"], tr)
        if "item" in p:
            return tr("rn.event.item_given", **names)
        return tr("rn.event.item_given.hidden", **names)

    def _items_taken(self, p: dict[str, Any], tr: Translator) -> str:
        names = self._names(p, tr)
        names["source"] = self.seat_name(p["source"], tr)
        count = int(p["count"])
        if "items" in p:
            return tr.plural("rn.event.items_taken", "rn.event.items_taken.plural", count, **names)
        return tr.plural(
            "rn.event.items_taken.hidden", "rn.event.items_taken.hidden.plural", count, **names
        )

    def _turn_ended(self, p: dict[str, Any], tr: Translator) -> str:
        names = self._names(p, tr)
        if p.get("space") is None:
            return tr("rn.event.turn_ended.out", **names)
        return tr("rn.event.turn_ended", **names)

    def _rooms_flooded(self, p: dict[str, Any], tr: Translator) -> str:
        if not p.get("rooms"):
            return tr("rn.event.rooms_flooded.none")
        return tr("rn.event.rooms_flooded", **self._names(p, tr))

    def _no_effect(self, p: dict[str, Any], tr: Translator) -> str:
        name = p["card"]
        if any(card.kind == name for card in self.c.events):
            return tr("rn.event.no_effect", card=self.card(name, tr))
        return tr("rn.event.no_effect.token", token=self.token(name, tr))

    def _hand_limit(self, p: dict[str, Any], tr: Translator) -> str:
        limit = int(p["limit"])
        names = self._names(p, tr)
        return tr.plural("rn.event.hand_limit", "rn.event.hand_limit.plural", limit, **names)

    def _gnome_killed(self, p: dict[str, Any], tr: Translator) -> str:
        names = self._names(p, tr)
        names["cause"] = tr(f"rn.cause.{p['cause']}")
        return tr("rn.event.gnome_killed", **names)

    def _game_over(self, p: dict[str, Any], tr: Translator) -> str:
        return self.result({"reason": p["reason"], "winners": p["winners"]}, tr)

    def _game_started(self, p: dict[str, Any], tr: Translator) -> str:
        where = tr.join(
            [
                tr("rn.event.gnome_in", gnome=self.short(g, tr), room=self.space(r, tr))
                for g, r in enumerate(p["rooms"])
            ]
        )
        return tr("rn.event.game_started", gnomes=p["gnomes"], space=p["space"], where=where)

    # -- the board -----------------------------------------------------------------
    def render(
        self, view: dict[str, Any], tr: Translator, who: dict[int, str], *, compact: bool = False
    ) -> RenderableType:
        """The whole table as the view's seat sees it; ``compact`` fits 80×24."""
        if compact:
            return self._compact(view, tr, who)
        parts: list[RenderableType] = [
            self._header(view, tr),
            self._rooms(view, tr),
            self._time(view, tr),
            self._tracks_and_decks(view, tr),
            self._gnomes(view, tr, who),
        ]
        turn = self._this_turn(view, tr)
        if turn is not None:
            parts.append(turn)
        parts.append(Text(tr("rn.board.legend"), style="dim"))
        return Group(*parts)

    def _compact(self, view: dict[str, Any], tr: Translator, who: dict[int, str]) -> Group:
        """The same table in about 20 lines: two columns of rooms, one line per gnome."""
        parts: list[RenderableType] = [self._header(view, tr), self._rooms_compact(view, tr)]
        if view["blocked"]:
            hatches = ", ".join(self.hatch(h) for h in view["blocked"])
            parts.append(Text(tr("rn.board.blocked_list", hatches=hatches)))
        parts.append(self._time(view, tr, compact=True))
        tracks = Text()
        for name, level in view["tracks"].items():
            if tracks:
                tracks.append(" · ")
            near = level >= self.c.track_length - 2
            tracks.append(f"{self.track(name, tr)} {level}/{self.c.track_length}")
            if near:
                tracks.stylize("bold red", len(tracks) - len(str(level)) - 3)
        parts.append(tracks)
        parts.append(Text(self._decks(view, tr, compact=True)))
        for g in view["gnomes"]:
            parts.append(self._gnome_line(g, view, tr, who))
        turn = self._this_turn(view, tr, compact=True)
        if turn is not None:
            parts.append(turn)
        return Group(*parts)

    def _rooms_compact(self, view: dict[str, Any], tr: Translator) -> Table:
        here = self._gnomes_here(view, tr)
        entries = []
        for row in [*view["rooms"], {"room": SEA, "fire": False, "water": 0}]:
            r = row["room"]
            text = Text(self.room(r, tr))
            if row["fire"]:
                text.append(" " + tr("rn.board.fire"), style="bold red")
            if row["water"]:
                water = tr("rn.board.high") if row["water"] == 2 else tr("rn.board.low")
                text.append(" " + water)
            if here.get(r):
                text.append(" ")
                text.append_text(Text(" ").join(here[r]))
            entries.append(text)
        half = (len(entries) + 1) // 2
        table = Table(show_header=False, box=None, pad_edge=False, padding=(0, 2, 0, 0))
        table.add_column(ratio=1)
        table.add_column(ratio=1)
        for i in range(half):
            right = entries[half + i] if half + i < len(entries) else Text()
            table.add_row(entries[i], right)
        return table

    def _gnomes_here(self, view: dict[str, Any], tr: Translator) -> dict[int, list[Text]]:
        here: dict[int, list[Text]] = {}
        for g in view["gnomes"]:
            if g["room"] is None:
                continue
            label = Text(self.short(g["seat"], tr), style=style_for(g["seat"]))
            if g["seat"] == view["seat"]:
                label.append("*", style="bold")
            if g["fainted"]:
                label.append(tr("rn.mark.fainted"))
            here.setdefault(g["room"], []).append(label)
        return here

    def _gnome_line(
        self, g: dict[str, Any], view: dict[str, Any], tr: Translator, who: dict[int, str]
    ) -> Text:
        s = g["seat"]
        row = self._gnome_row(g, view, tr, who)
        line = Text(self.seat_name(s, tr), style=style_for(s))
        if s == view["seat"]:
            line.append("*", style="bold")
        if row["who"]:
            line.append(f" ({shown(row['who'])})")
        # the room is in the rooms' grid above; the keeper's space, then drink and items
        line.append(f" · {row['keeper']} · {row['intoxication']} · {row['hand']}")
        if row["status"]:
            line.append(f" · {row['status']}", style="bold")
        return line

    def _header(self, view: dict[str, Any], tr: Translator) -> Text:
        seat = view["seat"]
        text = Text()
        text.append(tr("game.red-november"), style="bold")
        text.append(" · " + tr("rn.board.turn", turn=view["turn"]))
        if seat is not None:
            text.append(
                " · " + tr("rn.board.you_are", gnome=self.seat_name(seat, tr)), style="bold"
            )
        pending = self.pending_text(view, tr)
        if pending:
            text.append("\n" + pending, style="bold")
        return text

    def pending_text(self, view: dict[str, Any], tr: Translator) -> str:
        """The decision waited for, in words (empty once the game is over)."""
        pend = view["pending"]
        phase = pend["phase"]
        if phase == "over" or pend.get("seat") is None:
            return ""
        who = self.seat_name(pend["seat"], tr)
        if phase == "event_choice":
            choice = pend.get("choice", "discard")
            room = self.room(pend["room"], tr) if pend.get("room") else ""
            limit = int(pend.get("limit", 0))
            if choice == "discard":
                return tr.plural(
                    "rn.pending.choice.discard",
                    "rn.pending.choice.discard.plural",
                    limit,
                    gnome=who,
                    limit=limit,
                )
            return tr(
                f"rn.pending.choice.{choice}", gnome=who, room=room, limit=pend.get("limit", 0)
            )
        partner = pend.get("partner", -1)
        other = self.seat_name(partner, tr) if isinstance(partner, int) and partner >= 0 else ""
        active = view.get("active", -1)
        mover = self.seat_name(active, tr) if isinstance(active, int) and active >= 0 else ""
        return tr(f"rn.pending.{phase}", gnome=who, partner=other, active=mover)

    def _rooms(self, view: dict[str, Any], tr: Translator) -> Table:
        blocked = {tuple(h) for h in view["blocked"]}
        here = self._gnomes_here(view, tr)
        table = Table(
            title=tr("rn.board.submarine"),
            title_justify="left",
            expand=False,
            show_edge=False,
            pad_edge=False,
        )
        table.add_column("#", justify="right")
        table.add_column(tr("rn.board.col.room"))
        table.add_column(tr("rn.board.col.state"))
        table.add_column(tr("rn.board.col.gnomes"))
        table.add_column(tr("rn.board.col.hatches"))
        rows = [*view["rooms"], {"room": SEA, "fire": False, "water": 0}]
        for row in rows:
            r = row["room"]
            status = Text()
            if row["fire"]:
                status.append(tr("rn.board.fire"), style="bold red")
            if row["water"]:
                if status:
                    status.append(" ")
                if row["water"] == 2:
                    status.append(tr("rn.board.high"), style="bold blue")
                else:
                    status.append(tr("rn.board.low"), style="blue")
            hatches = Text()
            for dest, h in self.c.neighbours[r]:
                if hatches:
                    hatches.append(" ")
                pair = self.c.hatches[h] if h >= 0 else None
                if pair is not None and tuple(pair) in blocked:
                    hatches.append(f"{self.space(dest, tr)}({tr('rn.mark.blocked')})", style="bold")
                else:
                    hatches.append(self.space(dest, tr))
            gnomes = Text(" ").join(here.get(r, []))
            name = (
                tr(f"rn.room.{self.c.room_names[r]}")
                if self.c.room_names.get(r)
                else tr("rn.room.number", n=r)
            )
            if r == SEA:
                name = tr("rn.room.sea")
            table.add_row("" if r == SEA else str(r), name, status, gnomes, hatches)
        return table

    def _time(self, view: dict[str, Any], tr: Translator, *, compact: bool = False) -> Text:
        marks: dict[int, list[str]] = {}
        stacks: dict[int, list[tuple[int, int]]] = {}
        for g in view["gnomes"]:
            if g["keeper"] is not None and g["room"] is not None:
                stacks.setdefault(g["keeper"], []).append((g["stack"], g["seat"]))
        for space, stack in stacks.items():
            order = [self.short(s, tr) for _, s in sorted(stack, reverse=True)]
            marks.setdefault(space, []).append("/".join(order))
        if view["ghost"] is not None:
            marks.setdefault(view["ghost"], []).append(tr("rn.board.ghost"))
        for name, pos in view["tokens"].items():
            if pos is not None:
                marks.setdefault(pos, []).append(f"[{self.token(name, tr)}]")
        text = Text(tr("rn.board.time_track") + " ", style="bold")
        for i, space in enumerate(sorted(marks, reverse=True)):
            if i:
                text.append(" · ")
            text.append(f"{space} ", style="bold")
            text.append(" ".join(marks[space]))
        text.append(" · 0 " + tr("rn.board.rescued"))
        if not compact:
            text.append("\n" + tr("rn.board.stack_note"), style="dim")
        active = view.get("active", -1)
        if view["ghost"] is not None and isinstance(active, int) and active >= 0:
            keeper = view["gnomes"][active]["keeper"]
            if keeper is not None and not (compact and keeper == view["ghost"]):
                ev = [s for s in range(keeper - 1, view["ghost"] - 1, -1) if self.c.event_icon[s]]
                it = [s for s in range(keeper - 1, view["ghost"] - 1, -1) if self.c.item_icon[s]]
                nxt = next(
                    (s for s in range(view["ghost"] - 1, 0, -1) if self.c.event_icon[s]), None
                )
                text.append(
                    "\n"
                    + tr(
                        "rn.board.catchup",
                        keeper=keeper,
                        ghost=view["ghost"],
                        events=" ".join(map(str, ev)) or "–",
                        items=" ".join(map(str, it)) or "–",
                        next=nxt if nxt is not None else "–",
                    )
                )
        return text

    def _tracks_and_decks(self, view: dict[str, Any], tr: Translator) -> Table:
        table = Table(show_header=False, show_edge=False, box=None, pad_edge=False)
        table.add_column()
        table.add_column()
        length = self.c.track_length
        for name, level in view["tracks"].items():
            bar = Text("■" * level, style="bold red" if level >= length - 2 else "bold")
            bar.append("□" * (length - level))
            bar.append(f" {level}/{length}")
            table.add_row(self.track(name, tr), bar)
        table.add_row(tr("rn.board.col.decks"), self._decks(view, tr))
        opts = self._options(view["options"], tr)
        if opts:
            table.add_row(tr("rn.board.col.options"), opts)
        return table

    def _decks(self, view: dict[str, Any], tr: Translator, *, compact: bool = False) -> str:
        decks = tr(
            "rn.board.decks",
            events=view["event_deck"],
            event_discard=len(view["event_discard"]),
            items=view["item_deck"],
            item_discard=sum(view["item_discard"].values()),
            stash=view["grog_stash"],
        )
        if view["kraken_set_aside"] and not compact:
            decks += " · " + tr("rn.board.kraken_aside")
        if view["event_removed"]:
            decks += " · " + tr("rn.board.removed", n=len(view["event_removed"]))
        return decks

    def _options(self, options: dict[str, Any], tr: Translator) -> str:
        on = []
        if options.get("greater_challenge"):
            on.append(tr("rn.option.greater_challenge", level=options["greater_challenge"]))
        for name in ("less_deadly_dying", "crazed_gnomes", "heroic_sacrifice"):
            if options.get(name):
                on.append(tr(f"rn.option.{name}"))
        return ", ".join(on)

    def _gnomes(self, view: dict[str, Any], tr: Translator, who: dict[int, str]) -> Table:
        table = Table(show_edge=False, pad_edge=False)
        for col in GNOME_COLUMNS:
            # a name whole on one line: the hand and the status wrap first
            table.add_column(tr(f"rn.board.col.{col}"), no_wrap=col == "player")
        for g in view["gnomes"]:
            s = g["seat"]
            row = self._gnome_row(g, view, tr, who)
            name = Text(self.seat_name(s, tr), style=style_for(s))
            if s == view["seat"]:
                name.append("*", style="bold")
            table.add_row(name, *(plain(row[col]) for col in GNOME_COLUMNS[1:]))  # never markup
        return table

    def _gnome_row(
        self, g: dict[str, Any], view: dict[str, Any], tr: Translator, who: dict[int, str]
    ) -> dict[str, str]:
        """One gnome's cells (``GNOME_COLUMNS`` but the name), in words."""
        s = g["seat"]
        status = self.gnome_status(g, view, tr)
        if g["hand"] is None:
            hand = tr("rn.board.hidden_hand", n=g["hand_size"])
        elif g["hand"]:
            hand = self.items(g["hand"], tr)
        else:
            hand = "–"
        level = g["intoxication"]
        drunk = f"{'▮' * level}{'▯' * (4 - level)} {level}" if level else tr("rn.board.sober")
        return {
            "player": who.get(s, ""),
            "room": "–" if g["room"] is None else self.space(g["room"], tr),
            "keeper": "–" if g["keeper"] is None else str(g["keeper"]),
            "intoxication": drunk,
            "hand": hand,
            "status": ", ".join(status),
            "who": who.get(s, ""),
        }

    def _this_turn(
        self, view: dict[str, Any], tr: Translator, *, compact: bool = False
    ) -> Text | None:
        """What this turn's items did; ``None`` before a turn, or (``compact``) when the
        line would only repeat the Ghost Time Keeper's space."""
        parts = self.turn_phrases(view, tr)
        if not parts or (compact and len(parts) == 1):
            return None
        return Text(tr("rn.turn.title") + " " + " · ".join(parts))

    def turn_phrases(self, view: dict[str, Any], tr: Translator) -> list[str]:
        """What the active gnome's items did this turn, one phrase each (none between turns)."""
        if view["ghost"] is None or view["outcome"] is not None:
            return []
        t = view["this_turn"]
        parts = [tr("rn.turn.ghost", ghost=view["ghost"])]
        if t["grog"]:
            parts.append(tr("rn.turn.grog", n=t["grog"]))
        if t["enter_fire"]:
            parts.append(tr("rn.turn.enter_fire"))
        if t["aqualung"]:
            parts.append(tr("rn.turn.aqualung"))
        if t["lucky"]:
            parts.append(
                tr.plural("rn.turn.lucky", "rn.turn.lucky.plural", t["lucky"], n=t["lucky"])
            )
        if t["crowbar"] and view["options"].get("crazed_gnomes"):
            parts.append(tr("rn.turn.crowbar"))
        if t["started_outside"]:
            parts.append(tr("rn.turn.outside"))
        bonuses = [f"{self.fix(k, tr)} +{v}" for k, v in t["bonus"].items() if v]
        if bonuses:
            parts.append(tr("rn.turn.bonus", bonuses=", ".join(bonuses)))
        return parts

    def gnome_status(self, g: dict[str, Any], view: dict[str, Any], tr: Translator) -> list[str]:
        """A gnome's states in words: dead or abandoned, fainted, in the red area, active."""
        status = []
        if not g["alive"]:
            status.append(tr("rn.status.dead"))
        elif g["abandoned"]:
            status.append(tr("rn.status.abandoned"))
        if g["fainted"]:
            status.append(tr("rn.status.fainted"))
        if g["red_area"]:
            status.append(tr("rn.status.red_area"))
        if g["seat"] == view.get("active"):
            status.append(tr("rn.status.active"))
        return status

    # -- help, result, undo, options -----------------------------------------------
    def reminder(self, view: dict[str, Any], tr: Translator) -> list[str]:
        """Rule reminders for the decision on screen."""
        pend = view["pending"]
        phase = pend["phase"]
        out: list[str] = []
        if phase == "movement":
            out += [tr("rn.help.movement"), tr("rn.help.action"), tr("rn.help.items")]
            seat = view["seat"]
            g = view["gnomes"][seat] if seat is not None else None
            room = g["room"] if g else None
            if room is not None and room != SEA:
                row = view["rooms"][room - 1]
                if row["fire"]:
                    heroic = _heroic(view)
                    out.append(tr("rn.help.heroic_sacrifice") if heroic else tr("rn.help.in_fire"))
                elif row["water"] == 2:
                    out.append(tr("rn.help.in_high_water"))
                elif row["water"] == 1:
                    out.append(tr("rn.help.low_water"))
            if room == SEA:
                out.append(tr("rn.help.in_sea"))
        elif phase == "event_choice":
            out.append(tr(f"rn.help.choice.{pend.get('choice', 'discard')}"))
        elif phase != "over":
            out.append(tr(f"rn.help.{phase}"))
        out += [tr("rn.help.time"), tr("rn.help.goal")]
        return out

    def result(self, outcome: dict[str, Any], tr: Translator) -> str:
        """The result of a finished game."""
        reason = outcome["reason"]
        winners = tr.join([self.seat_name(g, tr) for g in outcome["winners"]])
        if reason == "rescued":
            return tr("rn.result.rescued", winners=winners)
        text = tr("rn.result.lost", reason=tr(f"rn.reason.{reason}"))
        if outcome["winners"]:
            text += " · " + tr("rn.result.abandoners", winners=winners)
        return text

    def hidden_counts(self, view: dict[str, Any]) -> Hashable:
        """The event and item deck sizes."""
        return (view["event_deck"], view["item_deck"])

    # -- words for the other layers --------------------------------------------------
    def title(self, tr: Translator) -> str:
        """``Red November``."""
        return tr("game.red-november")

    def end_reason(self, reason: str, tr: Translator) -> str:
        """Why the game ended (``crew_lost``), in words."""
        return tr(f"rn.reason.{reason}")

    def msgids(self) -> set[str]:
        """Every id of Red November's families."""
        return _msgids()


def _heroic(view: dict[str, Any]) -> bool:
    """Whether the view's seat is the active gnome, in the burning room he entered this turn
    under the heroic sacrifice house rule (RN-14): any action but Extinguish Fire is his last."""
    active = view.get("active")
    if view.get("pending", {}).get("phase") != "movement" or active is None or active < 0:
        return False
    if view.get("seat") != active:
        return False
    if not view["options"].get("heroic_sacrifice") or not view["this_turn"]["entered_fire"]:
        return False
    room = view["gnomes"][active]["room"]
    return room is not None and room != SEA and bool(view["rooms"][room - 1]["fire"])


def _match(key: str, names: set[str], name: str, text: str) -> list[tuple[str, str, int]]:
    """``[(name, text, rank)]`` if ``key`` is one of ``names`` (rank 3), begins one (2) or
    begins a word of one (1), else ``[]``."""
    rank = max(
        (
            3 if n == key else 2 if n.startswith(key) else 1
            for n in names
            if n.startswith(key) or any(w.startswith(key) for w in n.split())
        ),
        default=0,
    )
    return [(name, text, rank)] if rank else []


def _fold(text: str) -> str:
    """``Fire-Extinguisher`` → ``fire extinguisher``: how a typed card name is compared."""
    return " ".join(text.casefold().replace("-", " ").replace("_", " ").split())


#: the events a move's headline names, weightiest first (``headline``)
HEADLINES = (
    "game_lost",
    "game_won",
    "gnome_killed",
    "destruction_placed",
    "destruction_averted",
    "fire_spread",
    "fire_started",
    "track_reset",
    "room_flooded",
    "rooms_flooded",
    "track_advanced",
    "hatch_blocked",
    "fire_out",
    "gnome_fainted",
    "fix_attempted",
    "hatch_unblocked",
    "water_pumped",
    "water_reflowed",
    "items_drawn",
)

_Narrator = Callable[[RedNovemberUI, dict[str, Any], Translator], str]
_NARRATORS: dict[str, _Narrator] = {
    "fix_attempted": RedNovemberUI._fix_attempted,
    "faint_check": RedNovemberUI._faint_check,
    "items_drawn": RedNovemberUI._items_drawn,
    "item_given": RedNovemberUI._item_given,
    "items_taken": RedNovemberUI._items_taken,
    "turn_ended": RedNovemberUI._turn_ended,
    "rooms_flooded": RedNovemberUI._rooms_flooded,
    "no_effect": RedNovemberUI._no_effect,
    "gnome_killed": RedNovemberUI._gnome_killed,
    "hand_limit": RedNovemberUI._hand_limit,
    "game_won": RedNovemberUI._game_over,
    "game_lost": RedNovemberUI._game_over,
    "game_started": RedNovemberUI._game_started,
}


def _msgids() -> set[str]:
    """Every id of Red November's families."""
    from subtable.bots.red_november.advice import REASONS
    from subtable.games.red_november.game import RedNovember

    c = default_components()
    words = RedNovember.vocabulary
    phases = words.phases
    ids = {f"rn.room.{slug}" for slug in c.room_names.values() if slug}
    ids |= {f"rn.item.{item.kind}" for item in c.items}
    ids |= {f"rn.card.{card.kind}" for card in c.events}
    ids |= {f"rn.item_text.{item.kind}" for item in c.items}
    ids |= {f"rn.event_text.{card.kind}" for card in c.events}
    ids |= {f"rn.token.{t}" for t in c.tokens} | {f"rn.track.{t}" for t in c.tracks}
    ids |= {f"rn.fix.{f}" for f in FIX_KINDS}
    ids |= {f"rn.act.{k.name.lower()}" for k in Kind if k != Kind.DRAW}
    crazed = RedNovember(players=4, crazed_gnomes=True)
    ids |= {f"rn.act.public.{crazed.public_form(a)}" for a in crazed.action_space} - {
        "rn.act.public.None"
    }
    ids |= {f"rn.why.{code}" for code in words.illegal_reasons - set(WHY_VARIANTS)}
    ids |= {f"rn.waiting.{p}" for p in phases}
    ids |= {f"rn.pending.{p}" for p in phases if p not in ("event_choice", "over")}
    ids |= {f"rn.help.{p}" for p in phases if p not in ("movement", "event_choice", "over")}
    ids |= {f"rn.pending.choice.{ch}" for ch in CHOICES}
    ids |= {f"rn.help.choice.{ch}" for ch in CHOICES}
    ids |= {f"rn.event.{key}" for key in words.event_keys - set(_NARRATORS)}
    ids |= {f"rn.source.{s}" for s in words.extra["draw_sources"]}
    ids |= {f"rn.cause.{cause}" for cause in words.extra["death_causes"]}
    reasons = set(c.tracks) | set(c.tokens) | set(words.end_reasons)
    ids |= {f"rn.reason.{r}" for r in reasons}
    ids |= {f"rn.board.col.{col}" for col in GNOME_COLUMNS}
    ids |= {
        f"rn.option.{name}"
        for name in RedNovember.option_specs
        if name not in ("players", "gnomes", "greater_challenge")
    }
    ids |= {f"rn.advice.{key}" for key in REASONS}
    return ids
