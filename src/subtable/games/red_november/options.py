"""Red November's options, declared for every front end (see :mod:`subtable.core.options`):
the players, the crew they hold (one gnome each; two players hold four, a solo player three
or more) and the optional rules."""

from __future__ import annotations

from subtable.core.options import Follows, OptionSpec, Rule, declare

#: the players' count, and the number of gnomes each count allows
PLAYERS = tuple(range(1, 9))
GNOMES = tuple(range(3, 9))

#: how many gnomes a count of players holds: the rulebook's setup
CREW = Follows(
    "players",
    (
        Rule(
            (1,),
            GNOMES,
            3,
            "rn.err.solo_gnomes",
            "a solo player controls at least 3 gnomes",
        ),
        Rule(
            (2,),
            (4,),
            4,
            "rn.err.two_players_gnomes",
            "with 2 players each controls two gnomes: gnomes must be 4",
        ),
        Rule(
            tuple(n for n in PLAYERS if n >= 3),
            None,
            None,
            "rn.err.gnomes_players",
            "with {players} players there are {players} gnomes, not {gnomes}",
        ),
    ),
)

OPTIONS = declare(
    OptionSpec("players", int, 4, "number of players (1-8)", PLAYERS, label="web.home.players"),
    OptionSpec(
        "gnomes",
        int,
        None,
        "number of gnomes (3-8; 2 players hold 4, a solo player 3 or more)",
        GNOMES,
        label="web.home.gnomes",
        describe="web.home.gnomes_help",
        flag=True,
        follows=CREW,
    ),
    OptionSpec(
        "greater_challenge",
        int,
        0,
        "0 off; 1 Respites leave the game; 2 also one event per player before the first turn",
        (0, 1, 2),
        label="web.option.greater_challenge",
        describe="web.option_help.greater_challenge",
    ),
    OptionSpec(
        "less_deadly_dying",
        bool,
        False,
        "a dead gnome is replaced by a new one in a random room",
        label="rn.option.less_deadly_dying",
        describe="web.option_help.less_deadly_dying",
    ),
    OptionSpec(
        "crazed_gnomes",
        bool,
        False,
        "hidden hands and the Attack Gnome action",
        label="rn.option.crazed_gnomes",
        describe="web.option_help.crazed_gnomes",
    ),
    OptionSpec(
        "heroic_sacrifice",
        bool,
        False,
        (
            "FAQ house rule: a gnome who entered a burning room this turn (Grog or a Fire "
            "Extinguisher) may take an action there other than Extinguish Fire, and dies in "
            "the flames right after it; Unblock Hatch stays impossible in a burning room"
        ),
        label="rn.option.heroic_sacrifice",
        describe="web.option_help.heroic_sacrifice",
    ),
)
