"""Red November in words, for every front end: names, action labels and hints, reasons,
narration, reminders and results (the terminal's board: :mod:`subtable.ui.games.red_november`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from subtable.core.actions import Action
from subtable.core.errors import IllegalActionError
from subtable.core.events import Event
from subtable.core.view import SeatView
from subtable.games.red_november import rules
from subtable.games.red_november.actions import ACTION_KINDS, FIX_OF_KIND, Kind, RNAction
from subtable.games.red_november.components import (
    FIX_KINDS,
    SEA,
    Components,
    ItemKind,
    default_components,
)
from subtable.games.red_november.view import (
    CHOICE_NAMES,
    PHASE_NAMES,
    Choice,
    Phase,
    RedNovemberView,
)
from subtable.i18n import Translator, translator
from subtable.words.common import core_why, headline

#: reason codes told apart by the action's kind (``rn.why.wrong_room.<variant>``)
WHY_VARIANTS = ("wrong_room",)
#: the choices an event may ask for (``pending.choice`` in the view)
CHOICES = ("fire_spreads", "blocked_hatch", "discard")
#: the columns of the gnomes' table (``rn.board.col.<name>``)
GNOME_COLUMNS = ("gnome", "player", "room", "keeper", "intoxication", "hand", "status")
#: event parameters that name a gnome
_GNOME_PARAMS = ("gnome", "partner", "target", "chooser", "winner")


def rn_view(view: SeatView) -> RedNovemberView:
    """``view`` as a Red November view (raises ``TypeError`` for another game's)."""
    if not isinstance(view, RedNovemberView):
        raise TypeError(f"Red November's words read a RedNovemberView, not a {type(view).__name__}")
    return view


class _FixRoll(NamedTuple):
    """The die roll of a fix-it action: its chance, the roll it needs, its items' bonus,
    and the Destruction token it races (``too_late``: time is already past it)."""

    chance: Fraction
    target: int
    bonus: int
    token: str
    too_late: bool


class RedNovemberWords:
    """The :class:`~subtable.words.GameUI` of Red November: its words."""

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
    def action_hint(self, action: Action, seen: SeatView, tr: Translator) -> str | None:
        """A fix-it action's exact chance of success; what an item gives, or that it gives
        nothing now."""
        view = rn_view(seen)
        assert isinstance(action, RNAction)
        hint: str | None = None
        if action.kind in FIX_OF_KIND and view.active >= 0:
            hint = self._fix_hint(action, view, tr)
        elif action.kind == Kind.USE:
            hint = self._use_hint(self.c.items[action.target], view, tr)
        if action.kind in ACTION_KINDS and action.kind != Kind.EXTINGUISH and _heroic(view):
            death = tr("rn.hint.heroic_sacrifice")
            hint = death if hint is None else f"{hint} · {death}"
        return hint

    def odds(self, action: Action, seen: SeatView) -> float | None:
        """A fix-it action's exact chance of success (0 once time is past its token)."""
        view = rn_view(seen)
        assert isinstance(action, RNAction)
        if action.kind not in FIX_OF_KIND or view.active < 0:
            return None
        return float(self._fix_roll(action, view).chance)

    def _fix_hint(self, action: RNAction, view: RedNovemberView, tr: Translator) -> str:
        fix = self._fix_roll(action, view)
        if fix.too_late:
            return tr("rn.hint.too_late", token=self.token(fix.token, tr))
        percent = int(fix.chance * 100)  # a tenth of a d10: exact
        if fix.bonus:
            return tr("rn.hint.chance.bonus", percent=percent, target=fix.target, bonus=fix.bonus)
        return tr("rn.hint.chance", percent=percent, target=fix.target)

    def _fix_roll(self, action: RNAction, view: RedNovemberView) -> _FixRoll:
        """The roll a fix-it action would make, as ``view`` shows the board."""
        fix = FIX_OF_KIND[action.kind]
        room = view.aboard_room(view.active)
        # a fix-it action is offered only to a gnome aboard, during his turn
        assert room is not None and view.active >= 0
        water = [0, *view.water[1:SEA], 0]  # the rooms' water: none in the Sea
        penalty = rules.action_penalty(self.c, action.kind, water, room)
        bonus = view.this_turn.bonus[FIX_KINDS.index(fix)]
        repair = self.c.repairs.get(fix)
        slot = repair.token if repair is not None else -1  # its Destruction token, if any
        token = self.c.tokens[slot] if slot >= 0 else ""
        position = view.token[slot] if slot >= 0 else -1
        after = view.ghost - action.minutes - penalty
        return _FixRoll(
            token=token,
            bonus=bonus,
            too_late=rules.too_late(position, after),
            chance=rules.fix_success_chance(
                action.minutes, bonus, token=position, ghost_after=after
            ),
            target=min(rules.DIE, rules.fix_target(action.minutes, bonus)),
        )

    def _use_hint(self, item: ItemKind, view: RedNovemberView, tr: Translator) -> str | None:
        if item.sober:
            level = view.intoxication[view.active]
            return tr("rn.hint.sober") if level else tr("rn.hint.useless.sober")
        fixes = [FIX_KINDS[i] for i, b in enumerate(item.bonus) if b]
        if not fixes:
            return None
        names = tr.join([self.fix(f, tr) for f in fixes])
        bonus = max(item.bonus)
        attack = item.kind == "crowbar" and view.game.crazed_gnomes
        if attack or any(self._needed(f, view) for f in fixes):
            return tr("rn.hint.bonus", bonus=bonus, fixes=names)
        return tr("rn.hint.useless.bonus", bonus=bonus, fixes=names)

    def _needed(self, fix: str, view: RedNovemberView) -> bool:
        """Whether anything on the board calls for this fix-it action now."""
        if fix == "extinguish":
            return any(view.fire[1:SEA])
        if fix == "pump":
            return any(view.water[1:SEA])
        if fix == "unblock":
            return any(view.blocked)
        repair = self.c.repairs[fix]
        if repair.token >= 0 and view.token[repair.token] >= 0:
            return True
        if repair.track >= 0:
            level = view.track[repair.track]
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

    def pending_text(self, seen: SeatView, tr: Translator) -> str:
        """The decision waited for, in words (empty once the game is over)."""
        view = rn_view(seen)
        if view.phase == Phase.OVER:
            return ""
        who = self.seat_name(view.decider, tr)
        if view.phase == Phase.EVENT_CHOICE:
            choice = _choice_name(view)
            named = view.choice_room if view.choice == Choice.BLOCK else 0
            room = self.room(named, tr) if named else ""
            limit = view.discard_limit or 0
            if choice == "discard":
                return tr.plural(
                    "rn.pending.choice.discard",
                    "rn.pending.choice.discard.plural",
                    limit,
                    gnome=who,
                    limit=limit,
                )
            return tr(f"rn.pending.choice.{choice}", gnome=who, room=room, limit=limit)
        partner = view.named_partner
        other = self.seat_name(partner, tr) if partner >= 0 else ""
        mover = self.seat_name(view.active, tr) if view.active >= 0 else ""
        return tr(f"rn.pending.{PHASE_NAMES[view.phase]}", gnome=who, partner=other, active=mover)

    def turn_phrases(self, seen: SeatView, tr: Translator) -> list[str]:
        """What the active gnome's items did this turn, one phrase each (none between turns)."""
        view = rn_view(seen)
        if view.active < 0 or view.is_over:
            return []
        t = view.this_turn
        parts = [tr("rn.turn.ghost", ghost=view.ghost)]
        if t.grog:
            parts.append(tr("rn.turn.grog", n=t.grog))
        if t.fire_ok:
            parts.append(tr("rn.turn.enter_fire"))
        if t.aqualung:
            parts.append(tr("rn.turn.aqualung"))
        if t.lucky:
            parts.append(tr.plural("rn.turn.lucky", "rn.turn.lucky.plural", t.lucky, n=t.lucky))
        if t.crowbar and view.game.crazed_gnomes:
            parts.append(tr("rn.turn.crowbar"))
        if t.outside:
            parts.append(tr("rn.turn.outside"))
        bonuses = [f"{self.fix(k, tr)} +{v}" for k, v in zip(FIX_KINDS, t.bonus, strict=True) if v]
        if bonuses:
            parts.append(tr("rn.turn.bonus", bonuses=", ".join(bonuses)))
        return parts

    def gnome_status(self, g: int, seen: SeatView, tr: Translator) -> list[str]:
        """Gnome ``g``'s states in words: dead or abandoned, fainted, in the red area, active."""
        view = rn_view(seen)
        status = []
        if not view.alive[g]:
            status.append(tr("rn.status.dead"))
        elif view.abandoned[g]:
            status.append(tr("rn.status.abandoned"))
        if view.fainted[g]:
            status.append(tr("rn.status.fainted"))
        if view.red_room[g] == view.room[g] != 0:
            status.append(tr("rn.status.red_area"))
        if g == view.active:
            status.append(tr("rn.status.active"))
        return status

    # -- help, result, undo, options -----------------------------------------------
    def reminder(self, seen: SeatView, tr: Translator) -> list[str]:
        """Rule reminders for the decision on screen."""
        view = rn_view(seen)
        phase = view.phase
        out: list[str] = []
        if phase == Phase.MOVE:
            out += [tr("rn.help.movement"), tr("rn.help.action"), tr("rn.help.items")]
            room = view.aboard_room(view.seat) if view.seat is not None else None
            if room is not None and room != SEA:
                if view.fire[room]:
                    heroic = _heroic(view)
                    out.append(tr("rn.help.heroic_sacrifice") if heroic else tr("rn.help.in_fire"))
                elif view.water[room] == 2:
                    out.append(tr("rn.help.in_high_water"))
                elif view.water[room] == 1:
                    out.append(tr("rn.help.low_water"))
            if room == SEA:
                out.append(tr("rn.help.in_sea"))
        elif phase == Phase.EVENT_CHOICE:
            out.append(tr(f"rn.help.choice.{_choice_name(view)}"))
        elif phase != Phase.OVER:
            out.append(tr(f"rn.help.{PHASE_NAMES[phase]}"))
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

    def hidden_counts(self, seen: SeatView) -> Hashable:
        """The event and item deck sizes."""
        view = rn_view(seen)
        return (view.event_deck_size, view.item_deck_size)

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


def _heroic(view: RedNovemberView) -> bool:
    """Whether the view's seat is the active gnome, in the burning room he entered this turn
    under the heroic sacrifice house rule (RN-14): any action but Extinguish Fire is his last."""
    active = view.active
    if view.phase != Phase.MOVE or active < 0 or view.seat != active:
        return False
    if not view.game.heroic_sacrifice or not view.this_turn.entered_fire:
        return False
    room = view.aboard_room(active)
    return room is not None and room != SEA and view.fire[room]


def _choice_name(view: RedNovemberView) -> str:
    """The event's choice under way, by its wire name (``discard`` when none is named)."""
    return CHOICE_NAMES.get(view.choice, "discard")


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

_Narrator = Callable[[RedNovemberWords, dict[str, Any], Translator], str]
_NARRATORS: dict[str, _Narrator] = {
    "fix_attempted": RedNovemberWords._fix_attempted,
    "faint_check": RedNovemberWords._faint_check,
    "items_drawn": RedNovemberWords._items_drawn,
    "item_given": RedNovemberWords._item_given,
    "items_taken": RedNovemberWords._items_taken,
    "turn_ended": RedNovemberWords._turn_ended,
    "rooms_flooded": RedNovemberWords._rooms_flooded,
    "no_effect": RedNovemberWords._no_effect,
    "gnome_killed": RedNovemberWords._gnome_killed,
    "hand_limit": RedNovemberWords._hand_limit,
    "game_won": RedNovemberWords._game_over,
    "game_lost": RedNovemberWords._game_over,
    "game_started": RedNovemberWords._game_started,
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
