"""Red November at the terminal: its board drawn with Rich, beside its words
(:class:`subtable.words.red_november.RedNovemberWords`)."""

from __future__ import annotations

from collections.abc import Mapping

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from subtable.core.options import OptionValue
from subtable.core.view import SeatView
from subtable.games.red_november.components import SEA
from subtable.games.red_november.view import GnomeView, RedNovemberView
from subtable.i18n import Translator
from subtable.ui.games.common import style_for
from subtable.ui.plain import plain
from subtable.words.people import shown
from subtable.words.red_november import GNOME_COLUMNS, RedNovemberWords, rn_view


class RedNovemberUI(RedNovemberWords):
    """The terminal's :class:`~subtable.ui.games.GameUI` of Red November: its words and its
    board."""

    # -- the board -----------------------------------------------------------------
    def render(
        self, view: SeatView, tr: Translator, who: dict[int, str], *, compact: bool = False
    ) -> RenderableType:
        """The whole table as the view's seat sees it; ``compact`` fits 80×24."""
        board = rn_view(view)
        if compact:
            return self._compact(board, tr, who)
        parts: list[RenderableType] = [
            self._header(board, tr),
            self._rooms(board, tr),
            self._time(board, tr),
            self._tracks_and_decks(board, tr),
            self._gnomes(board, tr, who),
        ]
        turn = self._this_turn(board, tr)
        if turn is not None:
            parts.append(turn)
        parts.append(Text(tr("rn.board.legend"), style="dim"))
        return Group(*parts)

    def _compact(self, view: RedNovemberView, tr: Translator, who: dict[int, str]) -> Group:
        """The same table in about 20 lines: two columns of rooms, one line per gnome."""
        parts: list[RenderableType] = [self._header(view, tr), self._rooms_compact(view, tr)]
        if any(view.blocked):
            hatches = ", ".join(self.hatch(self.c.hatches[h]) for h in _blocked(view))
            parts.append(Text(tr("rn.board.blocked_list", hatches=hatches)))
        parts.append(self._time(view, tr, compact=True))
        tracks = Text()
        for name, level in zip(self.c.tracks, view.track, strict=True):
            if tracks:
                tracks.append(" · ")
            near = level >= self.c.track_length - 2
            tracks.append(f"{self.track(name, tr)} {level}/{self.c.track_length}")
            if near:
                tracks.stylize("bold red", len(tracks) - len(str(level)) - 3)
        parts.append(tracks)
        parts.append(Text(self._decks(view, tr, compact=True)))
        for g in view.gnomes:
            parts.append(self._gnome_line(g, view, tr, who))
        turn = self._this_turn(view, tr, compact=True)
        if turn is not None:
            parts.append(turn)
        return Group(*parts)

    def _rooms_compact(self, view: RedNovemberView, tr: Translator) -> Table:
        here = self._gnomes_here(view, tr)
        entries = []
        for r, fire, water_level in _spaces(view):
            text = Text(self.room(r, tr))
            if fire:
                text.append(" " + tr("rn.board.fire"), style="bold red")
            if water_level:
                water = tr("rn.board.high") if water_level == 2 else tr("rn.board.low")
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

    def _gnomes_here(self, view: RedNovemberView, tr: Translator) -> dict[int, list[Text]]:
        here: dict[int, list[Text]] = {}
        for g in view.gnomes:
            if not g.on_board:
                continue
            label = Text(self.short(g.seat, tr), style=style_for(g.seat))
            if g.seat == view.seat:
                label.append("*", style="bold")
            if g.fainted:
                label.append(tr("rn.mark.fainted"))
            here.setdefault(g.room, []).append(label)
        return here

    def _gnome_line(
        self, g: GnomeView, view: RedNovemberView, tr: Translator, who: dict[int, str]
    ) -> Text:
        s = g.seat
        row = self._gnome_row(g, view, tr, who)
        line = Text(self.seat_name(s, tr), style=style_for(s))
        if s == view.seat:
            line.append("*", style="bold")
        if row["who"]:
            line.append(f" ({shown(row['who'])})")
        # the room is in the rooms' grid above; the keeper's space, then drink and items
        line.append(f" · {row['keeper']} · {row['intoxication']} · {row['hand']}")
        if row["status"]:
            line.append(f" · {row['status']}", style="bold")
        return line

    def _header(self, view: RedNovemberView, tr: Translator) -> Text:
        seat = view.seat
        text = Text()
        text.append(tr("game.red-november"), style="bold")
        text.append(" · " + tr("rn.board.turn", turn=view.turn))
        if seat is not None:
            text.append(
                " · " + tr("rn.board.you_are", gnome=self.seat_name(seat, tr)), style="bold"
            )
        pending = self.pending_text(view, tr)
        if pending:
            text.append("\n" + pending, style="bold")
        return text

    def _rooms(self, view: RedNovemberView, tr: Translator) -> Table:
        blocked = {self.c.hatches[h] for h in _blocked(view)}
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
        for r, fire, water in _spaces(view):
            status = Text()
            if fire:
                status.append(tr("rn.board.fire"), style="bold red")
            if water:
                if status:
                    status.append(" ")
                if water == 2:
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

    def _time(self, view: RedNovemberView, tr: Translator, *, compact: bool = False) -> Text:
        marks: dict[int, list[str]] = {}
        stacks: dict[int, list[tuple[int, int]]] = {}
        for g in view.gnomes:
            if g.keeper >= 0 and g.on_board:
                stacks.setdefault(g.keeper, []).append((g.stack, g.seat))
        for space, stack in stacks.items():
            order = [self.short(s, tr) for _, s in sorted(stack, reverse=True)]
            marks.setdefault(space, []).append("/".join(order))
        turning = view.active >= 0  # a turn under way: the Ghost Time Keeper is out
        if turning:
            marks.setdefault(view.ghost, []).append(tr("rn.board.ghost"))
        for name, pos in zip(self.c.tokens, view.token, strict=True):
            if pos >= 0:
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
        if turning:
            keeper, ghost = view.keeper[view.active], view.ghost
            if keeper >= 0 and not (compact and keeper == ghost):
                ev = [s for s in range(keeper - 1, ghost - 1, -1) if self.c.event_icon[s]]
                it = [s for s in range(keeper - 1, ghost - 1, -1) if self.c.item_icon[s]]
                nxt = next((s for s in range(ghost - 1, 0, -1) if self.c.event_icon[s]), None)
                text.append(
                    "\n"
                    + tr(
                        "rn.board.catchup",
                        keeper=keeper,
                        ghost=ghost,
                        events=" ".join(map(str, ev)) or "–",
                        items=" ".join(map(str, it)) or "–",
                        next=nxt if nxt is not None else "–",
                    )
                )
        return text

    def _tracks_and_decks(self, view: RedNovemberView, tr: Translator) -> Table:
        table = Table(show_header=False, show_edge=False, box=None, pad_edge=False)
        table.add_column()
        table.add_column()
        length = self.c.track_length
        for name, level in zip(self.c.tracks, view.track, strict=True):
            bar = Text("■" * level, style="bold red" if level >= length - 2 else "bold")
            bar.append("□" * (length - level))
            bar.append(f" {level}/{length}")
            table.add_row(self.track(name, tr), bar)
        table.add_row(tr("rn.board.col.decks"), self._decks(view, tr))
        opts = self._options(view.game.options, tr)
        if opts:
            table.add_row(tr("rn.board.col.options"), opts)
        return table

    def _decks(self, view: RedNovemberView, tr: Translator, *, compact: bool = False) -> str:
        decks = tr(
            "rn.board.decks",
            events=view.event_deck_size,
            event_discard=len(view.event_discard),
            items=view.item_deck_size,
            item_discard=len(view.item_discard),
            stash=view.stash,
        )
        if view.event_aside and not compact:
            decks += " · " + tr("rn.board.kraken_aside")
        if view.event_removed:
            decks += " · " + tr("rn.board.removed", n=len(view.event_removed))
        return decks

    def _options(self, options: Mapping[str, OptionValue], tr: Translator) -> str:
        on = []
        if options.get("greater_challenge"):
            on.append(tr("rn.option.greater_challenge", level=options["greater_challenge"]))
        for name in ("less_deadly_dying", "crazed_gnomes", "heroic_sacrifice"):
            if options.get(name):
                on.append(tr(f"rn.option.{name}"))
        return ", ".join(on)

    def _gnomes(self, view: RedNovemberView, tr: Translator, who: dict[int, str]) -> Table:
        table = Table(show_edge=False, pad_edge=False)
        for col in GNOME_COLUMNS:
            # a name whole on one line: the hand and the status wrap first
            table.add_column(tr(f"rn.board.col.{col}"), no_wrap=col == "player")
        for g in view.gnomes:
            s = g.seat
            row = self._gnome_row(g, view, tr, who)
            name = Text(self.seat_name(s, tr), style=style_for(s))
            if s == view.seat:
                name.append("*", style="bold")
            table.add_row(name, *(plain(row[col]) for col in GNOME_COLUMNS[1:]))  # never markup
        return table

    def _gnome_row(
        self, g: GnomeView, view: RedNovemberView, tr: Translator, who: dict[int, str]
    ) -> dict[str, str]:
        """One gnome's cells (``GNOME_COLUMNS`` but the name), in words."""
        s = g.seat
        status = self.gnome_status(s, view, tr)
        held = view.hand_by_kind(s)
        if held is None:
            hand = tr("rn.board.hidden_hand", n=g.hand_size)
        elif held:
            hand = self.items(held, tr)
        else:
            hand = "–"
        level = g.intoxication
        drunk = f"{'▮' * level}{'▯' * (4 - level)} {level}" if level else tr("rn.board.sober")
        return {
            "player": who.get(s, ""),
            "room": self.space(g.room, tr) if g.on_board else "–",
            "keeper": str(g.keeper) if g.keeper >= 0 else "–",
            "intoxication": drunk,
            "hand": hand,
            "status": ", ".join(status),
            "who": who.get(s, ""),
        }

    def _this_turn(
        self, view: RedNovemberView, tr: Translator, *, compact: bool = False
    ) -> Text | None:
        """What this turn's items did; ``None`` before a turn, or (``compact``) when the
        line would only repeat the Ghost Time Keeper's space."""
        parts = self.turn_phrases(view, tr)
        if not parts or (compact and len(parts) == 1):
            return None
        return Text(tr("rn.turn.title") + " " + " · ".join(parts))


def _spaces(view: RedNovemberView) -> list[tuple[int, bool, int]]:
    """``(space, fire, water)`` of each room, then of the Sea (never on fire nor flooded)."""
    rooms = [(r, view.fire[r], view.water[r]) for r in range(1, SEA)]
    return [*rooms, (SEA, False, 0)]


def _blocked(view: RedNovemberView) -> list[int]:
    """The blocked hatches, in hatch order."""
    return [h for h, b in enumerate(view.blocked) if b]
