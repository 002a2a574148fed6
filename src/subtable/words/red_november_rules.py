"""Red November's rule book, as the English rulebook and the project's rulings say it.

Every number printed on the components — the tracks, the start spaces, the icons, the
cards and their counts — comes from :class:`Components`, so a variant's book gives the
variant's numbers; the cards' own texts are the catalogue's ``rn.item_text.*`` and
``rn.event_text.*``.
"""

from __future__ import annotations

from collections import Counter

from subtable.games.red_november import rules
from subtable.games.red_november.components import (
    FIX_KINDS,
    SEA,
    Components,
    EventCard,
    default_components,
)
from subtable.i18n import Translator
from subtable.words.red_november import RedNovemberWords
from subtable.words.rules import RuleEntry, RuleSection

#: the Disaster Track that fires advance (an engine rule, printed on no card)
FIRE_TRACK = "asphyxiation"
#: the worked example of a fix-it roll: this action, these minutes (the rulebook's own)
EXAMPLE_FIX = "unblock"
EXAMPLE_MINUTES = 4
#: how the Faint Check's dash is printed
DASH = "–"


def red_november_book(tr: Translator, components: Components | None = None) -> list[RuleSection]:
    """Red November's rules in ``tr``'s language, with ``components``' numbers."""
    c = components or default_components()
    ui = RedNovemberWords(c)
    return [
        _goal(tr, c),
        _setup(tr, c, ui),
        _disasters(tr, c, ui),
        _time(tr, c),
        _turn(tr),
        _movement(tr, c),
        _hazards(tr, c),
        _fixit(tr, c, ui),
        _actions(tr, c, ui),
        _items(tr, c, ui),
        _fainting(tr, c),
        _dying(tr),
        _events(tr, c, ui),
        _optional(tr, c),
    ]


def _p(text: str) -> RuleEntry:
    return RuleEntry(None, text)


def _numbers(tr: Translator, values: list[int]) -> str:
    return tr.join([str(v) for v in values])


def _where(tr: Translator, c: Components, room: int) -> str:
    """``in room 1 (Engine Room)``, ``in the Sea``: a place, without the article problem of
    a room's name after a preposition."""
    if room == SEA:
        return tr("rules.rn.in_sea")
    slug = c.room_names.get(room, "")
    if not slug:
        return tr("rules.rn.in_room.number", n=room)
    return tr("rules.rn.in_room", n=room, name=tr(f"rn.room.{slug}"))


def _cards_of(c: Components) -> dict[str, list[EventCard]]:
    """The event cards by kind, in deck order."""
    out: dict[str, list[EventCard]] = {}
    for card in c.events:
        out.setdefault(card.kind, []).append(card)
    return out


# -- the sections ---------------------------------------------------------------------------
def _goal(tr: Translator, c: Components) -> RuleSection:
    return RuleSection(
        "goal",
        tr("rules.rn.goal.title"),
        (
            _p(tr("rules.rn.goal.win")),
            _p(tr("rules.rn.goal.lose", length=c.track_length)),
            _p(tr("rules.rn.goal.abandon")),
        ),
    )


def _setup(tr: Translator, c: Components, ui: RedNovemberWords) -> RuleSection:
    by_space: dict[int, list[int]] = {}
    for gnomes, space in sorted(c.start_space.items()):
        by_space.setdefault(space, []).append(gnomes)
    starts = [
        tr(
            "rules.rn.setup.start",
            space=space,
            gnomes=str(g[0]) if len(g) == 1 else f"{g[0]}–{g[-1]}",
        )
        for space, g in sorted(by_space.items(), reverse=True)
    ]
    stash = tr.join([f"{ui.item(i.kind, tr)} ×{i.stash}" for i in c.items if i.stash])
    aside = [card for card in c.events if card.set_aside]
    decks = tr(
        "rules.rn.setup.decks",
        stash=stash,
        cabin=c.cabin_room,
        items=sum(i.copies - i.stash for i in c.items),
        aside=tr.join(list(dict.fromkeys(ui.card(card.kind, tr) for card in aside))),
        events=len(c.events) - len(aside),
    )
    return RuleSection(
        "setup",
        tr("rules.rn.setup.title"),
        (
            _p(tr("rules.rn.setup.gnomes", start=c.track_start)),
            _p(tr("rules.rn.setup.keepers", starts="; ".join(starts))),
            _p(decks),
            _p(tr("rules.rn.setup.few_players")),
        ),
    )


def _disasters(tr: Translator, c: Components, ui: RedNovemberWords) -> RuleSection:
    cards = _cards_of(c)
    entries = [
        _p(
            tr(
                "rules.rn.disasters.tracks",
                tracks=tr.join([ui.track(t, tr) for t in c.tracks]),
                start=c.track_start,
                length=c.track_length,
                resets=_numbers(tr, sorted(c.reset_points)),
            )
        )
    ]
    for t, track in enumerate(c.tracks):
        parts = []
        advancing = [ui.card(k, tr) for k, of in cards.items() if of[0].track == track]
        if advancing:
            parts.append(tr("rules.rn.disasters.advanced_by", cards=tr.join(advancing)))
        if track == FIRE_TRACK:
            parts.append(tr("rules.rn.disasters.fire"))
        for repair in c.repairs.values():
            if repair.track == t:
                fix, where = ui.fix(repair.kind, tr), _where(tr, c, repair.room)
                parts.append(tr("rules.rn.disasters.repaired_by", fix=fix, where=where))
        entries.append(RuleEntry(ui.track(track, tr), " ".join(parts)))
    entries.append(_p(tr("rules.rn.disasters.tokens")))
    for k, token in enumerate(c.tokens):
        parts = []
        for kind, of in cards.items():
            ahead = sorted({card.ahead for card in of if card.token == token})
            if ahead:
                spaces = "/".join(str(a) for a in ahead)
                parts.append(
                    tr("rules.rn.disasters.placed_by", card=ui.card(kind, tr), ahead=spaces)
                )
        for repair in c.repairs.values():
            if repair.token == k:
                fix, where = ui.fix(repair.kind, tr), _where(tr, c, repair.room)
                parts.append(tr("rules.rn.disasters.averted_by", fix=fix, where=where))
        entries.append(RuleEntry(ui.token(token, tr), " ".join(parts)))
    return RuleSection("disasters", tr("rules.rn.disasters.title"), tuple(entries))


def _time(tr: Translator, c: Components) -> RuleSection:
    events = [s for s in range(c.time_top, -1, -1) if c.event_icon[s]]
    items = [s for s in range(c.time_top, -1, -1) if c.item_icon[s]]
    return RuleSection(
        "time",
        tr("rules.rn.time.title"),
        (
            _p(tr("rules.rn.time.order", top=c.time_top)),
            _p(tr("rules.rn.time.ghost")),
            _p(tr("rules.rn.time.icons", events=_numbers(tr, events), items=_numbers(tr, items))),
        ),
    )


def _turn(tr: Translator) -> RuleSection:
    return RuleSection(
        "turn",
        tr("rules.rn.turn.title"),
        (
            _p(tr("rules.rn.turn.intro")),
            RuleEntry(tr("rules.rn.turn.movement.title"), tr("rules.rn.turn.movement")),
            RuleEntry(tr("rules.rn.turn.action.title"), tr("rules.rn.turn.action")),
            RuleEntry(tr("rules.rn.turn.faint.title"), tr("rules.rn.turn.faint")),
            RuleEntry(tr("rules.rn.turn.updates.title"), tr("rules.rn.turn.updates")),
        ),
    )


def _movement(tr: Translator, c: Components) -> RuleSection:
    exterior = _numbers(tr, sorted(c.exterior))
    return RuleSection(
        "movement",
        tr("rules.rn.movement.title"),
        (
            _p(tr("rules.rn.movement.steps", open=rules.OPEN_MINUTES)),
            _p(tr("rules.rn.movement.water")),
            _p(tr("rules.rn.movement.enter")),
            _p(tr("rules.rn.movement.blocked")),
            _p(tr("rules.rn.movement.sea", exterior=exterior)),
        ),
    )


def _hazards(tr: Translator, c: Components) -> RuleSection:
    return RuleSection(
        "hazards",
        tr("rules.rn.hazards.title"),
        (
            RuleEntry(tr("rules.rn.hazards.fire.title"), tr("rules.rn.hazards.fire")),
            RuleEntry(
                tr("rules.rn.hazards.low.title"),
                tr("rules.rn.hazards.low", penalty=c.low_water_penalty),
            ),
            RuleEntry(tr("rules.rn.hazards.high.title"), tr("rules.rn.hazards.high")),
        ),
    )


def _fixit(tr: Translator, c: Components, ui: RedNovemberWords) -> RuleSection:
    entries = [_p(tr("rules.rn.fixit.roll", max=c.max_fix_minutes, die=rules.DIE))]
    fix = FIX_KINDS.index(EXAMPLE_FIX)
    helper = next((item for item in c.items if item.bonus[fix] and not item.intoxicates), None)
    if helper is not None:
        bonus = helper.bonus[fix]
        target = min(rules.DIE, rules.fix_target(EXAMPLE_MINUTES, bonus))
        entries.append(
            _p(
                tr(
                    "rules.rn.fixit.example",
                    minutes=EXAMPLE_MINUTES,
                    item=ui.item(helper.kind, tr),
                    bonus=bonus,
                    fix=ui.fix(EXAMPLE_FIX, tr),
                    target=target,
                    percent=target * 100 // rules.DIE,
                    penalty=c.low_water_penalty,
                    total=EXAMPLE_MINUTES + c.low_water_penalty,
                )
            )
        )
    entries.append(_p(tr("rules.rn.fixit.kinds")))
    entries.append(_p(tr("rules.rn.fixit.late")))
    return RuleSection("fixit", tr("rules.rn.fixit.title"), tuple(entries))


def _actions(tr: Translator, c: Components, ui: RedNovemberWords) -> RuleSection:
    top, penalty = c.max_fix_minutes, c.low_water_penalty
    entries = [
        _p(tr("rules.rn.actions.intro", penalty=penalty)),
        RuleEntry(ui.fix("extinguish", tr), tr("rules.rn.actions.extinguish", max=top)),
        RuleEntry(ui.fix("pump", tr), tr("rules.rn.actions.pump", max=top)),
        RuleEntry(ui.fix("unblock", tr), tr("rules.rn.actions.unblock", max=top, penalty=penalty)),
    ]
    for repair in c.repairs.values():
        if repair.room == SEA:
            where = tr("rules.rn.actions.repair.sea", max=top)
        else:
            here = _where(tr, c, repair.room)
            where = tr("rules.rn.actions.repair", max=top, penalty=penalty, where=here)
        track = ui.track(c.tracks[repair.track], tr) if repair.track >= 0 else ""
        token = ui.token(c.tokens[repair.token], tr) if repair.token >= 0 else ""
        if track and token:
            effect = tr("rules.rn.actions.repair.both", track=track, token=token)
        elif track:
            effect = tr("rules.rn.actions.repair.track", track=track)
        elif token:
            effect = tr("rules.rn.actions.repair.token", token=token)
        else:
            effect = ""
        entries.append(RuleEntry(ui.fix(repair.kind, tr), f"{where} {effect}".strip()))
    draw = tr(
        "rules.rn.actions.draw",
        penalty=penalty,
        stores=_where(tr, c, c.stores_room),
        stores_max=c.stores_max_draw,
        cabin=_where(tr, c, c.cabin_room),
        cabin_max=c.cabin_max_draw,
    )
    entries += [
        RuleEntry(tr("rules.rn.actions.draw.title"), draw),
        RuleEntry(
            tr("rules.rn.actions.trade.title"), tr("rules.rn.actions.trade", penalty=penalty)
        ),
        RuleEntry(tr("rules.rn.actions.no_action.title"), tr("rules.rn.actions.no_action")),
        RuleEntry(
            tr("rules.rn.actions.abandon.title"),
            tr("rules.rn.actions.abandon", space=c.abandon_below),
        ),
        RuleEntry(
            tr("rules.rn.actions.attack.title"), tr("rules.rn.actions.attack", penalty=penalty)
        ),
    ]
    return RuleSection("actions", tr("rules.rn.actions.title"), tuple(entries))


def _items(tr: Translator, c: Components, ui: RedNovemberWords) -> RuleSection:
    entries = [_p(tr("rules.rn.items.use")), _p(tr("rules.rn.items.hand"))]
    for item in c.items:
        if item.stash:
            count = tr.plural(
                "rules.rn.items.stash", "rules.rn.items.stash.plural", item.copies, stash=item.stash
            )
        else:
            count = tr.plural("rules.rn.items.copies", "rules.rn.items.copies.plural", item.copies)
        text = f"{tr(f'rn.item_text.{item.kind}')} {count}"
        entries.append(RuleEntry(ui.item(item.kind, tr), text))
    return RuleSection("items", tr("rules.rn.items.title"), tuple(entries))


def _fainting(tr: Translator, c: Components) -> RuleSection:
    counts = Counter(card.faint for card in c.events)
    numbers = ", ".join(f"{n or DASH} ×{counts[n]}" for n in sorted(counts))
    return RuleSection(
        "fainting",
        tr("rules.rn.fainting.title"),
        (
            _p(tr("rules.rn.fainting.intoxication")),
            _p(tr("rules.rn.fainting.check")),
            _p(tr("rules.rn.fainting.deck", numbers=numbers)),
            _p(tr("rules.rn.fainting.fainted", minutes=c.faint_minutes)),
        ),
    )


def _dying(tr: Translator) -> RuleSection:
    return RuleSection(
        "dying",
        tr("rules.rn.dying.title"),
        (_p(tr("rules.rn.dying.causes")), _p(tr("rules.rn.dying.removed"))),
    )


def _events(tr: Translator, c: Components, ui: RedNovemberWords) -> RuleSection:
    cards = _cards_of(c)
    aside = [ui.card(k, tr) for k, of in cards.items() if of[0].set_aside]
    entries = [_p(tr("rules.rn.events.draw", aside=tr.join(aside)))]
    for kind, of in cards.items():
        faint = ", ".join(str(card.faint or DASH) for card in of)
        count = tr.plural(
            "rules.rn.events.copies", "rules.rn.events.copies.plural", len(of), faint=faint
        )
        entries.append(RuleEntry(ui.card(kind, tr), f"{tr(f'rn.event_text.{kind}')} {count}"))
    return RuleSection("events", tr("rules.rn.events.title"), tuple(entries))


def _optional(tr: Translator, c: Components) -> RuleSection:
    return RuleSection(
        "optional",
        tr("rules.rn.optional.title"),
        (
            _p(tr("rules.rn.optional.intro")),
            RuleEntry(
                tr("rules.rn.optional.greater_challenge.title"),
                tr("rules.rn.optional.greater_challenge"),
            ),
            RuleEntry(tr("rn.option.less_deadly_dying"), tr("rules.rn.optional.less_deadly_dying")),
            RuleEntry(
                tr("rn.option.crazed_gnomes"),
                tr("rules.rn.optional.crazed_gnomes", penalty=c.low_water_penalty),
            ),
            RuleEntry(tr("rn.option.heroic_sacrifice"), tr("rules.rn.optional.heroic_sacrifice")),
        ),
    )
