"""Submarine in words, for every front end: names, action labels, reasons, narration,
reminders, scores and results (the terminal's board: :mod:`subtable.ui.games.submarine`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from subtable.core.actions import Action
from subtable.core.errors import IllegalActionError
from subtable.core.events import Event
from subtable.core.view import SeatView
from subtable.games.submarine.actions import Kind, SubAction
from subtable.games.submarine.components import Components, default_components
from subtable.games.submarine.view import Phase, SubmarineView
from subtable.i18n import Translator
from subtable.words.common import core_why, headline

#: the columns of the players' table (``sub.board.col.<name>``)
PLAYER_COLUMNS = ("player", "who", "boat", "bathyscaphes", "treasures", "jokers", "hand", "pile")
#: reason codes told apart by the action's kind (``sub.why.<code>.<kind>``)
WHY_VARIANTS = {
    "no_bathyscaphe": ("boat", "move", "collect"),
    "no_card": ("swap", "give", "collect"),
    "already_acted": ("move", "collect"),
}


class SubmarineWords:
    """The :class:`~subtable.words.GameUI` of Submarine: its words."""

    name = "submarine"

    def __init__(self, components: Components | None = None) -> None:
        self.c = components or default_components()

    # -- names ---------------------------------------------------------------------
    def seat_name(self, seat: int, tr: Translator) -> str:
        """``Player 2``."""
        return tr("sub.player", n=seat + 1)

    def colour(self, name: str, tr: Translator) -> str:
        """A colour's name."""
        return tr(f"sub.colour.{name}")

    def card_colour(self, name: str, tr: Translator) -> str:
        """A search card's colour, agreeing with "card" (``une carte verte``)."""
        return tr(f"sub.colour.card.{name}")

    def cards(self, names: list[str], tr: Translator) -> str:
        """Search cards by colour: ``red, red and blue``."""
        return tr.join([self.card_colour(n, tr) for n in names])

    def token(self, name: str, tr: Translator) -> str:
        """``Crown (red)``, ``Joker (blue)`` from notation (``crown-red``)."""
        kind, _, colour = name.rpartition("-")
        return tr("sub.token", treasure=tr(f"sub.treasure.{kind}"), colour=self.colour(colour, tr))

    def _token_of(self, index: int) -> str:
        return self.c.token_name(index)

    # -- actions -------------------------------------------------------------------
    def action_label(self, action: Action, tr: Translator) -> str:
        """What an action does, in words (``sub.act.<kind>``)."""
        assert isinstance(action, SubAction)
        k = action.kind
        if k == Kind.COLLECT:
            token = self.token(self._token_of(action.token), tr)
            if action.pay < 0:
                colour = self.card_colour(self.c.colours[self.c.token_colour(action.token)], tr)
                return tr("sub.act.collect.card", token=token, colour=colour)
            return tr(
                "sub.act.collect.joker",
                token=token,
                joker=self.token(self._token_of(action.pay), tr),
            )
        params: dict[str, Any] = {"column": action.column + 1, "level": action.level + 1}
        if k in (Kind.GIVE, Kind.SWAP):
            params["colour"] = self.card_colour(self.c.colours[action.colour], tr)
        return tr(f"sub.act.{k.name.lower()}", **params)

    def public_label(self, form: str, tr: Translator) -> str:
        """What the other seats read of a private move (``sub.act.public.<form>``)."""
        return tr(f"sub.act.public.{form}")

    # -- hints and card texts ------------------------------------------------------
    def action_hint(self, action: Action, view: SeatView, tr: Translator) -> str | None:
        """Submarine's labels already say what each move costs: no hint."""
        return None

    def odds(self, action: Action, view: SeatView) -> float | None:
        """No move of Submarine succeeds or fails by chance."""
        return None

    def card_text(self, word: str, tr: Translator) -> str | None:
        """Submarine's cards are plain colours: no card has a rules text."""
        return None

    # -- why not -------------------------------------------------------------------
    def why(self, error: IllegalActionError, action: Action, tr: Translator) -> str:
        """Translate an :class:`IllegalActionError` from its code and params."""
        assert isinstance(action, SubAction)
        core = core_why(error, tr, self.seat_name)
        if core is not None:
            return core
        code, p = error.code, dict(error.params)
        for key in ("token", "joker"):
            if key in p:
                p[key] = self.token(p[key], tr)
        if "colour" in p:
            p["colour"] = self.card_colour(p["colour"], tr)
        if code == "wrong_phase":
            return tr("sub.why.wrong_phase", waiting=tr(f"sub.waiting.{p.get('phase', 'over')}"))
        if code in WHY_VARIANTS:
            kind = action.kind.name.lower()
            code = f"{code}.{kind if kind in WHY_VARIANTS[code] else WHY_VARIANTS[code][0]}"
        if not tr.has(f"sub.why.{code}"):
            return tr("ui.why.unknown_code", code=code, message=error.message)
        return tr(f"sub.why.{code}", **p)

    def advice_reason(self, key: str, params: dict[str, Any], tr: Translator) -> str:
        """One line of why the expert advises an option (``sub.advice.<key>``, the keys of
        :mod:`subtable.bots.submarine.advice`)."""
        p = dict(params)
        for name in ("token", "joker"):
            if name in p:
                p[name] = self.token(p[name], tr)
        if "colour" in p:
            p["colour"] = self.card_colour(p["colour"], tr)
        return tr(f"sub.advice.{key}", **p)

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
        if not tr.has(f"sub.event.{key}"):
            return tr("ui.event.unknown", key=key)
        return tr(f"sub.event.{key}", **self._names(p, tr))

    def _names(self, p: dict[str, Any], tr: Translator) -> dict[str, Any]:
        out = dict(p)
        for key in ("seat", "to", "first"):
            if isinstance(p.get(key), int):
                out[key] = self.seat_name(p[key], tr)
        if "winners" in p:
            out["winners"] = tr.join([self.seat_name(s, tr) for s in p["winners"]])
        if isinstance(p.get("card"), str):
            out["card"] = self.card_colour(p["card"], tr)
        if isinstance(p.get("cards"), list):
            out["cards"] = self.cards(p["cards"], tr)
        if isinstance(p.get("drawn"), str):
            out["drawn"] = self.card_colour(p["drawn"], tr)
        return out

    def _cards_drawn(self, p: dict[str, Any], tr: Translator) -> str:
        count, names = int(p["count"]), self._names(p, tr)
        if "cards" in p:
            return tr.plural(
                "sub.event.cards_drawn.seen", "sub.event.cards_drawn.seen.plural", count, **names
            )
        return tr.plural("sub.event.cards_drawn", "sub.event.cards_drawn.plural", count, **names)

    def _card_given(self, p: dict[str, Any], tr: Translator) -> str:
        names = self._names(p, tr)
        names["source"] = tr(f"sub.source.{p['source']}")
        if "card" in p:
            return tr("sub.event.card_given.seen", **names)
        return tr("sub.event.card_given", **names)

    def _card_swapped(self, p: dict[str, Any], tr: Translator) -> str:
        if "card" in p:
            return tr("sub.event.card_swapped.seen", **self._names(p, tr))
        return tr("sub.event.card_swapped", **self._names(p, tr))

    def _treasure_collected(self, p: dict[str, Any], tr: Translator) -> str:
        names = self._names(p, tr)
        names["token"] = self.token(f"{p['treasure']}-{p['colour']}", tr)
        if p.get("paid") == "joker" and p.get("joker"):
            names["payment"] = tr("sub.pay.joker", joker=self.token(p["joker"], tr))
        else:
            names["payment"] = tr.plural(
                "sub.pay.card",
                "sub.pay.card.plural",
                int(p.get("toll", 0)),
                colour=self.card_colour(p["colour"], tr),
            )
        names["stored"] = tr(f"sub.stored.{p['stored']}")
        return tr("sub.event.treasure_collected", **names)

    def _game_over(self, p: dict[str, Any], tr: Translator) -> str:
        reason = tr(
            f"sub.reason.{p['reason']}",
            seat=self.seat_name(p["seat"], tr),
            column=p.get("column", ""),
        )
        return tr("sub.event.game_over", reason=reason)

    def _game_started(self, p: dict[str, Any], tr: Translator) -> str:
        names = self._names(p, tr)
        return tr("sub.event.game_started", **names)

    def pending_text(self, seen: SeatView, tr: Translator) -> str:
        """The decision waited for, in words (empty once the game is over)."""
        view = submarine_view(seen)
        if view.phase == Phase.OVER:
            return ""
        turn = view.phase in (Phase.ACT, Phase.GIVE, Phase.TO)
        lv = view.game.components.levels
        mine = view.bathyscaphes[view.active]
        idle = sorted(mine[i] % lv + 1 for i in view.idle()) if turn else []
        moving: Sequence[int | str] = ("", "")
        if turn and view.moving >= 0:
            col, level = divmod(view.moving_cell(), lv)
            moving = (col + 1, level + 1)
        held = view.game.token_names[view.pending_token] if view.phase == Phase.GIVE else ""
        return tr(
            f"sub.pending.{view.phase.label}",
            player=self.seat_name(view.active, tr),
            column=view.column + 1 if turn else "",
            idle=", ".join(map(str, idle)) or "–",
            from_column=moving[0],
            from_level=moving[1],
            toll=len(view.owed) if view.phase == Phase.GIVE else 0,
            treasure=self.token(held, tr) if held else "",
        )

    # -- help, result, undo --------------------------------------------------------
    def reminder(self, seen: SeatView, tr: Translator) -> list[str]:
        """Rule reminders for the decision on screen."""
        phase = submarine_view(seen).phase
        out = [] if phase == Phase.OVER else [tr(f"sub.help.{phase.label}")]
        if phase == Phase.ACT:
            out.append(tr("sub.help.toll"))
        return [*out, tr("sub.help.goal")]

    def result(self, outcome: dict[str, Any], tr: Translator) -> str:
        """The winners of a finished game."""
        return tr(
            "sub.result", winners=tr.join([self.seat_name(s, tr) for s in outcome["winners"]])
        )

    def scores(self, seen: SeatView, tr: Translator) -> str:
        """Everyone's treasures, jokers and cards (the tie-breakers, in order)."""
        view = submarine_view(seen)
        return "; ".join(
            tr(
                "sub.score",
                player=self.seat_name(s, tr),
                treasures=sum(t >= 0 for t in view.treasures[s]),
                jokers=len(view.jokers[s]),
                cards=view.cards_held(s),
            )
            for s in range(view.players)
        )

    def hidden_counts(self, seen: SeatView) -> Hashable:
        """Every draw pile's size and the boxed cards."""
        view = submarine_view(seen)
        return (view.pile_sizes, view.boxed_cards)

    # -- words for the other layers --------------------------------------------------
    def title(self, tr: Translator) -> str:
        """``Submarine``."""
        return tr("game.submarine")

    def end_reason(self, reason: str, tr: Translator) -> str:
        """Why the game ended (``twelve_treasures``), in words."""
        return tr(f"sub.end.{reason}")

    def msgids(self) -> set[str]:
        """Every id of Submarine's families."""
        return _msgids()


def submarine_view(view: SeatView) -> SubmarineView:
    """``view``, which Submarine's words read, as the Submarine view it must be (raises
    ``TypeError`` naming what came instead)."""
    if not isinstance(view, SubmarineView):
        raise TypeError(f"Submarine's words read a SubmarineView, not {type(view).__name__}")
    return view


#: the events a move's headline names, weightiest first (``headline``)
HEADLINES = (
    "game_over",
    "treasure_collected",
    "card_given",
    "card_swapped",
    "bathyscaphe_moved",
    "boat_moved",
    "boat_left_board",
    "boats_returned",
)

_Narrator = Callable[[SubmarineWords, dict[str, Any], Translator], str]
_NARRATORS: dict[str, _Narrator] = {
    "cards_drawn": SubmarineWords._cards_drawn,
    "card_given": SubmarineWords._card_given,
    "card_swapped": SubmarineWords._card_swapped,
    "treasure_collected": SubmarineWords._treasure_collected,
    "game_over": SubmarineWords._game_over,
    "game_started": SubmarineWords._game_started,
}


def _msgids() -> set[str]:
    """Every id of Submarine's families."""
    from subtable.bots.submarine.advice import REASONS
    from subtable.games.submarine.game import Submarine

    c = default_components()
    words = Submarine.vocabulary
    phases = words.phases
    ids = {f"sub.treasure.{t}" for t in (*c.types, c.joker)}
    ids |= {f"sub.colour.{col}" for col in c.colours}
    ids |= {f"sub.colour.abbr.{col}" for col in c.colours}
    ids |= {f"sub.colour.card.{col}" for col in c.colours}
    ids |= {f"sub.board.card.{col}" for col in c.colours}
    ids |= {f"sub.act.{k.name.lower()}" for k in Kind if k != Kind.COLLECT}
    game = Submarine(players=3)
    ids |= {f"sub.act.public.{game.public_form(a)}" for a in game.action_space} - {
        "sub.act.public.None"
    }
    ids |= {f"sub.why.{code}" for code in words.illegal_reasons - set(WHY_VARIANTS)}
    ids |= {f"sub.why.{code}.{kind}" for code, kinds in WHY_VARIANTS.items() for kind in kinds}
    ids |= {f"sub.waiting.{p}" for p in phases}
    ids |= {f"sub.pending.{p}" for p in phases if p != "over"}
    ids |= {f"sub.help.{p}" for p in phases if p != "over"}
    ids |= {f"sub.event.{key}" for key in words.event_keys - set(_NARRATORS)}
    ids |= {f"sub.source.{s}" for s in ("pile", "hand")}
    ids |= {f"sub.stored.{s}" for s in ("board", "jokers")}
    ids |= {f"sub.board.col.{col}" for col in PLAYER_COLUMNS}
    ids |= {f"sub.reason.{r}" for r in words.end_reasons}
    ids |= {f"sub.end.{r}" for r in words.end_reasons}
    ids |= {f"sub.advice.{key}" for key in REASONS}
    return ids
