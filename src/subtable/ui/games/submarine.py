"""Submarine at the terminal: its board drawn with Rich, beside its words
(:class:`subtable.words.submarine.SubmarineWords`)."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from subtable.i18n import Translator
from subtable.ui.games.common import style_for
from subtable.ui.plain import plain
from subtable.words.people import shown
from subtable.words.submarine import PLAYER_COLUMNS, SubmarineWords
from subtable.words.submarine_json import PlayerJSON, SubmarineViewJSON, view_json

#: Rich styles of the treasure colours (always shown with the colour's letters too)
COLOUR_STYLES = {
    "red": "red",
    "yellow": "yellow",
    "green": "green",
    "blue": "blue",
    "purple": "magenta",
}


class SubmarineUI(SubmarineWords):
    """The terminal's :class:`~subtable.ui.games.GameUI` of Submarine: its words and its
    board."""

    def token_short(self, name: str, tr: Translator) -> Text:
        """A token in a board cell: its name and colour letters, in its colour."""
        kind, _, colour = name.rpartition("-")
        label = f"{tr(f'sub.treasure.{kind}')}·{tr(f'sub.colour.abbr.{colour}')}"
        return Text(label, style=COLOUR_STYLES.get(colour, ""))

    # -- the board -----------------------------------------------------------------
    def render(
        self, view: dict[str, Any], tr: Translator, who: dict[int, str], *, compact: bool = False
    ) -> RenderableType:
        """The whole table as the view's seat sees it; ``compact`` fits 80×24."""
        board = view_json(view)
        parts: list[RenderableType] = [
            self._header(board, tr, compact=compact),
            self._sea(board, tr, compact=compact),
            self._player_lines(board, tr, who) if compact else self._players(board, tr, who),
        ]
        mine = self._my_board(board, tr, compact=compact)
        if mine is not None:
            parts.append(mine)
        if not compact:
            parts.append(Text(tr("sub.board.legend"), style="dim"))
        return Group(*parts)

    def _header(self, view: SubmarineViewJSON, tr: Translator, *, compact: bool = False) -> Text:
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

    def _beside(self, view: SubmarineViewJSON, tr: Translator) -> Text:
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

    def _sea(self, view: SubmarineViewJSON, tr: Translator, *, compact: bool = False) -> Table:
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

    def _player_lines(self, view: SubmarineViewJSON, tr: Translator, who: dict[int, str]) -> Group:
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

    def _player_cells(self, p: PlayerJSON, tr: Translator) -> list[str]:
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

    def _players(self, view: SubmarineViewJSON, tr: Translator, who: dict[int, str]) -> Table:
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
        self, view: SubmarineViewJSON, tr: Translator, *, compact: bool = False
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
