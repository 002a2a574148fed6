"""Submarine at the terminal: its board drawn with Rich, beside its words
(:class:`subtable.words.submarine.SubmarineWords`)."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from subtable.core.view import SeatView
from subtable.games.submarine.view import LEFT, SubmarineView
from subtable.i18n import Translator
from subtable.ui.games.common import style_for
from subtable.ui.plain import plain
from subtable.words.people import shown
from subtable.words.submarine import PLAYER_COLUMNS, SubmarineWords, submarine_view

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
        self, view: SeatView, tr: Translator, who: dict[int, str], *, compact: bool = False
    ) -> RenderableType:
        """The whole table as the view's seat sees it; ``compact`` fits 80×24."""
        board = submarine_view(view)
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

    def _header(self, view: SubmarineView, tr: Translator, *, compact: bool = False) -> Text:
        text = Text()
        text.append(tr("game.submarine"), style="bold")
        text.append(" · " + tr("sub.board.turn", turn=view.turn))
        if view.seat is not None:
            text.append(
                " · " + tr("sub.board.you_are", player=self.seat_name(view.seat, tr)),
                style="bold",
            )
        pending = self.pending_text(view, tr)
        if pending:
            text.append("\n" + pending, style="bold")
        colours = view.game.components.colours
        discard = [(c, n) for c, n in zip(colours, view.discard, strict=True) if n]
        text.append(
            (" · " if compact else "\n")
            + tr(
                "sub.board.discard",
                cards=", ".join(f"{self.card_colour(c, tr)} {n}" for c, n in discard) or "–",
            )
        )
        if compact:
            text.append(" · ").append_text(self._beside(view, tr))
        return text

    def _beside(self, view: SubmarineView, tr: Translator) -> Text:
        """``surface ← B1 B2``: the boats beside the board, left and right."""
        text = Text(tr("sub.board.surface"))
        for side, arrow in ((LEFT, "←"), (view.game.components.columns, "→")):
            here = [s for s, boat in enumerate(view.boats) if boat == side]
            if here:
                text.append(f" {arrow} ")
                text.append_text(
                    Text(" ").join(
                        Text(tr("sub.mark.boat", n=s + 1), style=style_for(s)) for s in here
                    )
                )
        return text

    def _sea(self, view: SubmarineView, tr: Translator, *, compact: bool = False) -> Table:
        c = view.game.components
        columns, levels = c.columns, c.levels
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
        boats: dict[int, list[Text]] = {}
        baths: dict[int, list[Text]] = {}
        for s in range(view.players):
            boats.setdefault(view.boats[s], []).append(
                Text(tr("sub.mark.boat", n=s + 1), style=style_for(s))
            )
            for at in view.bathyscaphes[s]:
                baths.setdefault(at, []).append(
                    Text(tr("sub.mark.bathyscaphe", n=s + 1), style=style_for(s))
                )
        left = Text(" ").join(boats.get(LEFT, []))
        right = Text(" ").join(boats.get(columns, []))
        surface = Text(tr("sub.board.surface"))
        sep = " " if compact else "\n"
        if left:
            surface.append(f"{sep}← ")
            surface.append_text(left)
        if right:
            surface.append(f"{sep}→ ")
            surface.append_text(right)
        over = [Text(" ").join(boats.get(col, [])) for col in range(columns)]
        if compact:  # the boats beside the board are in the header, the others over their column
            if any(over):
                table.add_row("", *over, end_section=True)
        else:
            table.add_row(surface, *over)
        names = view.game.token_names
        for lvl in range(levels):
            row: list[Text] = []
            for col in range(columns):
                cell = Text()
                for i, token in enumerate(sorted(view.cells[col * levels + lvl])):
                    if i:
                        cell.append("\n")
                    cell.append_text(self.token_short(names[token], tr))
                here = baths.get(col * levels + lvl, [])
                if here:
                    if cell:
                        cell.append("\n")
                    cell.append_text(Text(" ").join(here))
                row.append(cell)
            label = str(lvl + 1) if compact else tr("sub.board.level", n=lvl + 1)
            table.add_row(label, *row, end_section=compact)
        return table

    def _player_lines(self, view: SubmarineView, tr: Translator, who: dict[int, str]) -> Group:
        """One line per player: the players' table of a narrow terminal."""
        lines = []
        for s in range(view.players):
            cells = self._player_cells(view, s, tr)
            line = Text(self.seat_name(s, tr), style=style_for(s))
            if s == view.seat:
                line.append("*", style="bold")
            if who.get(s):
                line.append(f" ({shown(who[s])})")
            for col, value in zip(PLAYER_COLUMNS[2:], cells, strict=True):
                if col in ("boat", "bathyscaphes"):  # both are on the board above
                    continue
                # the jokers and the hand read without their headings: ``3 cards``
                head = "" if col in ("jokers", "hand") else tr(f"sub.board.col.{col}") + " "
                line.append(f" · {head}{value}")
            lines.append(line)
        return Group(*lines)

    def _player_cells(self, view: SubmarineView, s: int, tr: Translator) -> list[str]:
        """Seat ``s``'s cells of ``PLAYER_COLUMNS`` after the name and who plays it."""
        c = view.game.components
        boat = view.boats[s]
        where = (
            tr("sub.board.boat.left")
            if boat == LEFT
            else tr("sub.board.boat.right")
            if boat == c.columns
            else tr("sub.board.column", n=boat + 1)
        )
        baths = ", ".join(
            tr("sub.board.cell", column=b // c.levels + 1, level=b % c.levels + 1)
            for b in sorted(view.bathyscaphes[s])
        )
        jokers = ", ".join(self.token(j, tr) for j in _token_names(view, view.jokers[s])) or "–"
        hand = view.hands[s]
        if hand is None:
            n = view.hand_sizes[s]
            held = tr.plural("sub.board.hidden_hand", "sub.board.hidden_hand.plural", n, n=n)
        else:
            held = ", ".join(
                f"{self.card_colour(colour, tr)} ×{n}"
                for colour, n in zip(c.colours, hand, strict=True)
                if n
            )
        owned = sum(t >= 0 for t in view.treasures[s])
        return [where, baths or "–", str(owned), jokers, held or "–", str(view.pile_sizes[s])]

    def _players(self, view: SubmarineView, tr: Translator, who: dict[int, str]) -> Table:
        table = Table(show_edge=False, pad_edge=False)
        for col in PLAYER_COLUMNS:
            # a name whole on one line: a column of numbers wraps first
            table.add_column(tr(f"sub.board.col.{col}"), no_wrap=col == "who")
        for s in range(view.players):
            name = Text(self.seat_name(s, tr), style=style_for(s))
            if s == view.seat:
                name.append("*", style="bold")
            cells = [who.get(s, ""), *self._player_cells(view, s, tr)]
            table.add_row(name, *(plain(cell) for cell in cells))  # a name is never markup
        return table

    def _my_board(
        self, view: SubmarineView, tr: Translator, *, compact: bool = False
    ) -> Text | None:
        seat = view.seat
        if seat is None:
            return None
        mine = _token_names(view, (t for t in view.treasures[seat] if t >= 0))
        owned = {name.rpartition("-")[0]: name for name in mine}
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
        jokers = _token_names(view, view.jokers[seat])
        text.append(f"  |  {tr('sub.board.col.jokers')}: ", style="bold")
        text.append_text(
            Text(" ").join([self.token_short(j, tr) for j in jokers]) if jokers else Text("–")
        )
        return text


def _token_names(view: SubmarineView, tokens: Iterable[int]) -> list[str]:
    """The tokens' notation names (``crown-red``)."""
    names = view.game.token_names
    return [names[t] for t in tokens]
