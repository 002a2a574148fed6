"""Submarine at the terminal: board, names, narration, reasons and reminders."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from subtable.core.actions import Action
from subtable.core.errors import IllegalActionError
from subtable.core.events import Event
from subtable.games.submarine.actions import Kind, SubAction
from subtable.games.submarine.components import Components, default_components
from subtable.i18n import Translator
from subtable.ui.games.common import core_why, headline, style_for
from subtable.ui.plain import plain, shown

#: Rich styles of the treasure colours (always shown with the colour's letters too)
COLOUR_STYLES = {
    "red": "red",
    "yellow": "yellow",
    "green": "green",
    "blue": "blue",
    "purple": "magenta",
}
#: the columns of the players' table (``sub.board.col.<name>``)
PLAYER_COLUMNS = ("player", "who", "boat", "bathyscaphes", "treasures", "jokers", "hand", "pile")
#: reason codes told apart by the action's kind (``sub.why.<code>.<kind>``)
WHY_VARIANTS = {
    "no_bathyscaphe": ("boat", "move", "collect"),
    "no_card": ("swap", "give", "collect"),
    "already_acted": ("move", "collect"),
}


class SubmarineUI:
    """The :class:`~subtable.ui.games.base.GameUI` of Submarine."""

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

    def token_short(self, name: str, tr: Translator) -> Text:
        """A token in a board cell: its name and colour letters, in its colour."""
        kind, _, colour = name.rpartition("-")
        label = f"{tr(f'sub.treasure.{kind}')}·{tr(f'sub.colour.abbr.{colour}')}"
        return Text(label, style=COLOUR_STYLES.get(colour, ""))

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
    def action_hint(self, action: Action, view: dict[str, Any], tr: Translator) -> str | None:
        """Submarine's labels already say what each move costs: no hint."""
        return None

    def odds(self, action: Action, view: dict[str, Any]) -> float | None:
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

    # -- the board -----------------------------------------------------------------
    def render(
        self, view: dict[str, Any], tr: Translator, who: dict[int, str], *, compact: bool = False
    ) -> RenderableType:
        """The whole table as the view's seat sees it; ``compact`` fits 80×24."""
        parts: list[RenderableType] = [
            self._header(view, tr, compact=compact),
            self._sea(view, tr, compact=compact),
            self._player_lines(view, tr, who) if compact else self._players(view, tr, who),
        ]
        mine = self._my_board(view, tr, compact=compact)
        if mine is not None:
            parts.append(mine)
        if not compact:
            parts.append(Text(tr("sub.board.legend"), style="dim"))
        return Group(*parts)

    def _header(self, view: dict[str, Any], tr: Translator, *, compact: bool = False) -> Text:
        text = Text()
        text.append(tr("game.submarine"), style="bold")
        text.append(" · " + tr("sub.board.turn", turn=view["turn"]))
        if view["seat"] is not None:
            text.append(
                " · " + tr("sub.board.you_are", player=self.seat_name(view["seat"], tr)),
                style="bold",
            )
        pending = self.pending_text(view, tr)
        if pending:
            text.append("\n" + pending, style="bold")
        discard = view["discard"]
        text.append(
            (" · " if compact else "\n")
            + tr(
                "sub.board.discard",
                cards=", ".join(f"{self.card_colour(c, tr)} {n}" for c, n in discard.items())
                or "–",
            )
        )
        if compact:
            text.append(" · ").append_text(self._beside(view, tr))
        return text

    def pending_text(self, view: dict[str, Any], tr: Translator) -> str:
        """The decision waited for, in words (empty once the game is over)."""
        pend = view["pending"]
        if pend["phase"] == "over" or pend.get("seat") is None:
            return ""
        idle = pend.get("idle", [])
        moving = pend.get("moving") or ["", ""]
        return tr(
            f"sub.pending.{pend['phase']}",
            player=self.seat_name(pend["seat"], tr),
            column=pend.get("column", ""),
            idle=", ".join(map(str, idle)) or "–",
            from_column=moving[0],
            from_level=moving[1],
            toll=pend.get("toll_left", 0),
            treasure=self.token(pend["treasure"], tr) if pend.get("treasure") else "",
        )

    def _beside(self, view: dict[str, Any], tr: Translator) -> Text:
        """``surface ← B1 B2``: the boats beside the board, left and right."""
        text = Text(tr("sub.board.surface"))
        for side, arrow in (("left", "←"), ("right", "→")):
            here = [p["seat"] for p in view["players"] if p["boat"] == side]
            if here:
                text.append(f" {arrow} ")
                text.append_text(
                    Text(" ").join(
                        Text(tr("sub.mark.boat", n=s + 1), style=style_for(s)) for s in here
                    )
                )
        return text

    def _sea(self, view: dict[str, Any], tr: Translator, *, compact: bool = False) -> Table:
        cells = view["cells"]
        columns = len(cells)
        if compact:  # no borders, numbers for headings: six columns of tokens in 80
            table = Table(box=None, pad_edge=False, padding=(0, 1, 0, 0), show_lines=False)
        else:
            table = Table(
                title=tr("sub.board.sea"), title_justify="left", show_lines=True, pad_edge=False
            )
        table.add_column("")
        for col in range(columns):
            head = str(col + 1) if compact else tr("sub.board.column", n=col + 1)
            table.add_column(head, justify="left", overflow="fold")
        boats: dict[Any, list[Text]] = {}
        baths: dict[tuple[int, int], list[Text]] = {}
        for p in view["players"]:
            s = p["seat"]
            boats.setdefault(p["boat"], []).append(
                Text(tr("sub.mark.boat", n=s + 1), style=style_for(s))
            )
            for col, lvl in p["bathyscaphes"]:
                baths.setdefault((col, lvl), []).append(
                    Text(tr("sub.mark.bathyscaphe", n=s + 1), style=style_for(s))
                )
        left = Text(" ").join(boats.get("left", []))
        right = Text(" ").join(boats.get("right", []))
        surface = Text(tr("sub.board.surface"))
        sep = " " if compact else "\n"
        if left:
            surface.append(f"{sep}← ")
            surface.append_text(left)
        if right:
            surface.append(f"{sep}→ ")
            surface.append_text(right)
        over = [Text(" ").join(boats.get(c + 1, [])) for c in range(columns)]
        if compact:  # the boats beside the board are in the header, the others over their column
            if any(over):
                table.add_row("", *over, end_section=True)
        else:
            table.add_row(surface, *over)
        for lvl in range(len(cells[0])):
            row: list[Text] = []
            for col in range(columns):
                cell = Text()
                for i, name in enumerate(cells[col][lvl]):
                    if i:
                        cell.append("\n")
                    cell.append_text(self.token_short(name, tr))
                here = baths.get((col + 1, lvl + 1), [])
                if here:
                    if cell:
                        cell.append("\n")
                    cell.append_text(Text(" ").join(here))
                row.append(cell)
            label = str(lvl + 1) if compact else tr("sub.board.level", n=lvl + 1)
            table.add_row(label, *row, end_section=compact)
        return table

    def _player_lines(self, view: dict[str, Any], tr: Translator, who: dict[int, str]) -> Group:
        """One line per player: the players' table of a narrow terminal."""
        lines = []
        for p in view["players"]:
            cells = self._player_cells(p, tr)
            line = Text(self.seat_name(p["seat"], tr), style=style_for(p["seat"]))
            if p["seat"] == view["seat"]:
                line.append("*", style="bold")
            if who.get(p["seat"]):
                line.append(f" ({shown(who[p['seat']])})")
            for col, value in zip(PLAYER_COLUMNS[2:], cells, strict=True):
                if col in ("boat", "bathyscaphes"):  # both are on the board above
                    continue
                # the jokers and the hand read without their headings: ``3 cards``
                head = "" if col in ("jokers", "hand") else tr(f"sub.board.col.{col}") + " "
                line.append(f" · {head}{value}")
            lines.append(line)
        return Group(*lines)

    def _player_cells(self, p: dict[str, Any], tr: Translator) -> list[str]:
        """A player's cells of ``PLAYER_COLUMNS`` after the name and who plays it."""
        boat = p["boat"]
        where = (
            tr("sub.board.boat.left")
            if boat == "left"
            else tr("sub.board.boat.right")
            if boat == "right"
            else tr("sub.board.column", n=boat)
        )
        baths = ", ".join(tr("sub.board.cell", column=c, level=lv) for c, lv in p["bathyscaphes"])
        jokers = ", ".join(self.token(j, tr) for j in p["jokers"]) or "–"
        if p["hand"] is None:
            n = int(p["hand_size"])
            hand = tr.plural("sub.board.hidden_hand", "sub.board.hidden_hand.plural", n, n=n)
        else:
            hand = ", ".join(f"{self.card_colour(c, tr)} ×{n}" for c, n in p["hand"].items()) or "–"
        return [where, baths or "–", str(len(p["treasures"])), jokers, hand, str(p["pile_size"])]

    def _players(self, view: dict[str, Any], tr: Translator, who: dict[int, str]) -> Table:
        table = Table(show_edge=False, pad_edge=False)
        for col in PLAYER_COLUMNS:
            # a name whole on one line: a column of numbers wraps first
            table.add_column(tr(f"sub.board.col.{col}"), no_wrap=col == "who")
        for p in view["players"]:
            s = p["seat"]
            name = Text(self.seat_name(s, tr), style=style_for(s))
            if s == view["seat"]:
                name.append("*", style="bold")
            cells = [who.get(s, ""), *self._player_cells(p, tr)]
            table.add_row(name, *(plain(cell) for cell in cells))  # a name is never markup
        return table

    def _my_board(
        self, view: dict[str, Any], tr: Translator, *, compact: bool = False
    ) -> Text | None:
        seat = view["seat"]
        if seat is None:
            return None
        owned = {name.rpartition("-")[0]: name for name in view["players"][seat]["treasures"]}
        text = Text(tr("sub.board.your_board") + " ", style="bold")
        if compact:
            text.append(f"{len(owned)}/{len(self.c.types)} ")
        for i, kind in enumerate(self.c.types):
            if compact and kind not in owned:
                continue  # a narrow terminal lists only what is owned
            if i:
                text.append("  ")
            if kind in owned:
                text.append("✓ ")
                text.append_text(self.token_short(owned[kind], tr))
            else:
                text.append(f"· {tr(f'sub.treasure.{kind}')}", style="dim")
        jokers = view["players"][seat]["jokers"]
        text.append(f"  |  {tr('sub.board.col.jokers')}: ", style="bold")
        text.append_text(
            Text(" ").join([self.token_short(j, tr) for j in jokers]) if jokers else Text("–")
        )
        return text

    # -- help, result, undo --------------------------------------------------------
    def reminder(self, view: dict[str, Any], tr: Translator) -> list[str]:
        """Rule reminders for the decision on screen."""
        phase = view["pending"]["phase"]
        out = [] if phase == "over" else [tr(f"sub.help.{phase}")]
        if phase == "bathyscaphes":
            out.append(tr("sub.help.toll"))
        return [*out, tr("sub.help.goal")]

    def result(self, outcome: dict[str, Any], tr: Translator) -> str:
        """The winners of a finished game."""
        return tr(
            "sub.result", winners=tr.join([self.seat_name(s, tr) for s in outcome["winners"]])
        )

    def scores(self, view: dict[str, Any], tr: Translator) -> str:
        """Everyone's treasures, jokers and cards (the tie-breakers, in order)."""
        return "; ".join(
            tr(
                "sub.score",
                player=self.seat_name(p["seat"], tr),
                treasures=len(p["treasures"]),
                jokers=len(p["jokers"]),
                cards=p["hand_size"] + p["pile_size"],
            )
            for p in view["players"]
        )

    def hidden_counts(self, view: dict[str, Any]) -> Hashable:
        """Every draw pile's size and the boxed cards."""
        return (tuple(p["pile_size"] for p in view["players"]), view["box_cards"])

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

_Narrator = Callable[[SubmarineUI, dict[str, Any], Translator], str]
_NARRATORS: dict[str, _Narrator] = {
    "cards_drawn": SubmarineUI._cards_drawn,
    "card_given": SubmarineUI._card_given,
    "card_swapped": SubmarineUI._card_swapped,
    "treasure_collected": SubmarineUI._treasure_collected,
    "game_over": SubmarineUI._game_over,
    "game_started": SubmarineUI._game_started,
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
