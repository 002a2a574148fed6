"""Submarine's rules as pure functions of public data: one source for the engine and the bots.

Every function reads plain ids (tokens, 0-based cells and columns, see
:mod:`subtable.games.submarine.components`) so that the engine
(:mod:`~subtable.games.submarine.state`), its ``why_illegal`` and any bot
reading a :class:`~subtable.games.submarine.view.SubmarineView` apply the very
same rule. Each one names the rulebook passage or ``RULING`` it implements.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

#: the end reasons, in the order the rulebook lists them (RULING SUB-20)
TWELVE_TREASURES = "twelve_treasures"
COLUMN_EMPTIED = "column_emptied"
CARDS_EXHAUSTED = "cards_exhausted"
END_REASONS: tuple[str, ...] = (TWELVE_TREASURES, COLUMN_EMPTIED, CARDS_EXHAUSTED)


def toll_seats(
    bathyscaphes: Sequence[Sequence[int]], seat: int, cell: int, levels: int
) -> list[int]:
    """Who receives a toll card when ``seat`` takes a token from ``cell`` with a card.

    « pour chaque bathyscaphe adverse se trouvant dans la même colonne, au même
    niveau ou à un niveau moins profond » (RULING SUB-9): one entry per opponent
    bathyscaphe in the same column at the same or a shallower level, opponents in
    clockwise order from ``seat``'s left. ``bathyscaphes[s]`` are seat ``s``'s cells.
    """
    lo = cell - cell % levels
    n = len(bathyscaphes)
    out = []
    for k in range(1, n):
        r = (seat + k) % n
        for b in bathyscaphes[r]:
            if lo <= b <= cell:
                out.append(r)
    return out


def toll_count(bathyscaphes: Sequence[Sequence[int]], seat: int, cell: int, levels: int) -> int:
    """``len(toll_seats(...))`` without building the list (a hot path)."""
    lo = cell - cell % levels
    k = 0
    for r, baths in enumerate(bathyscaphes):
        if r != seat:
            for b in baths:
                if lo <= b <= cell:
                    k += 1
    return k


def can_pay_card(hand: Sequence[int], colour: int, pile_size: int, tolls: int) -> bool:
    """Whether a card payment for a token of ``colour`` is possible (RULING SUB-10).

    It needs a card of that colour in hand plus one more card, from the pile or
    the hand, for each toll.
    """
    return hand[colour] > 0 and pile_size + sum(hand) - 1 >= tolls


def retakes_own_joker(token: int, pay: int, placed: Collection[int]) -> bool:
    """Whether collecting ``token`` with joker ``pay`` would take back, with a joker, a
    joker the same collection put down (``placed``) — forbidden (RULING SUB-15).

    A card may take it back (``pay`` -1); so may another bathyscaphe's collection.
    """
    return pay >= 0 and token in placed


def destinations(cell: int, cells: int, levels: int) -> list[int]:
    """The cells a bathyscaphe in ``cell`` may move to, sorted (RULING SUB-7).

    Any column, at the same level or one level up or down; never its own cell.
    """
    lv = cell % levels
    return [d for d in range(cells) if d != cell and abs(d % levels - lv) <= 1]


def boat_stops(position: int, occupied: Collection[int], columns: int) -> list[int]:
    """The columns a boat at ``position`` may stop over (RULING SUB-5).

    Right of its position, over a column in ``occupied`` (where the player has a
    bathyscaphe). Leaving off the right edge is always possible besides.
    """
    return [col for col in range(position + 1, columns) if col in occupied]


def cell_of(cells: Sequence[Collection[int]], column: int, levels: int, token: int) -> int:
    """The cell of ``column`` holding ``token``, or -1."""
    lo = column * levels
    for cell in range(lo, lo + levels):
        if token in cells[cell]:
            return cell
    return -1


def stores_on_board(
    treasures: Sequence[int], token: int, treasure_tokens: int, colours: int
) -> bool:
    """Whether a collected ``token`` goes on the individual board (RULING SUB-16).

    A treasure of a type not yet there does; a shell or a duplicate goes beside
    the board as a joker. ``treasures[type]`` is the token stored there or -1.
    """
    return token < treasure_tokens and treasures[token // colours] < 0


def column_treasures(
    cells: Sequence[Sequence[int]], column: int, levels: int, treasure_tokens: int
) -> int:
    """How many treasures (shells excluded) lie in ``column`` (RULING SUB-21)."""
    lo = column * levels
    return sum(1 for cell in cells[lo : lo + levels] for t in cell if t < treasure_tokens)


def end_after_collection(
    *,
    board_full: bool,
    treasure_taken: bool,
    column_left: int,
    paid_with_card: bool,
    cards_left: int,
) -> str | None:
    """The end reason a collection triggers, or ``None`` (RULINGS SUB-20 to SUB-22).

    ``board_full``: the token completed the collector's board; ``treasure_taken``:
    it is a treasure (not a shell); ``column_left``: treasures left in its column
    afterwards (a duplicate paid in counts); ``cards_left``: search cards held by
    every player together afterwards.
    """
    if board_full:
        return TWELVE_TREASURES
    if treasure_taken and column_left == 0:
        return COLUMN_EMPTIED
    if paid_with_card and cards_left == 0:
        return CARDS_EXHAUSTED
    return None


def score(treasures: Sequence[int], jokers: int, cards: int) -> tuple[int, int, int]:
    """A player's ranking key, higher is better (RULING SUB-24).

    Different treasures, then jokers, then search cards held (hand and pile).
    """
    return (sum(1 for t in treasures if t >= 0), jokers, cards)
