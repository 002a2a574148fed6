"""Each game declares its options; every front end builds a game from them one way."""

from __future__ import annotations

import pytest

from subtable.core.errors import OptionError
from subtable.core.options import Follows, OptionSpec, Rule, declare, settle
from subtable.core.registry import registration
from subtable.i18n import translator
from subtable.words.game_options import (
    GameRequest,
    GameRequestError,
    asked_options,
    build_game,
    flag_specs,
)

EN = translator("en")


def _crew() -> dict[str, OptionSpec]:
    follows = Follows(
        "players",
        (
            Rule((1,), (3, 4), 3, "x.solo", "solo {crew}"),
            Rule((2, 3), None, None, "x.same", "{players} players, {crew} crew"),
        ),
    )
    return declare(
        OptionSpec("players", int, 2, "players", (1, 2, 3)),
        OptionSpec("crew", int, None, "crew", (1, 2, 3, 4), flag=True, follows=follows),
    )


def test_a_following_option_settles_from_the_one_it_follows() -> None:
    specs = _crew()
    assert settle(specs, {"players": 1, "crew": None})["crew"] == 3
    assert settle(specs, {"players": 3, "crew": None})["crew"] == 3
    assert settle(specs, {"players": 1, "crew": 4})["crew"] == 4
    with pytest.raises(OptionError) as caught:
        settle(specs, {"players": 2, "crew": 3})
    assert caught.value.message == "2 players, 3 crew"
    assert caught.value.params == {
        "option": "crew",
        "words": "x.same",
        "fields": {"players": 2, "crew": 3},
    }


def test_a_declaration_names_only_its_own_options() -> None:
    stray = Follows("seats", ())
    with pytest.raises(ValueError, match="undeclared option seats"):
        declare(OptionSpec("crew", int, None, "crew", follows=stray))


def test_the_registration_declares_the_options_the_engine_takes() -> None:
    for game in ("red-november", "submarine"):
        plugin = registration(game)
        assert plugin.option_specs() is plugin.game_class().option_specs
    assert set(flag_specs()) == {"gnomes"}


@pytest.mark.parametrize(
    "request_, code, words",
    [
        (GameRequest("chess"), "unknown_game", "Unknown game “chess”"),
        (GameRequest("submarine", 3, {"gnomes": 4}), "no_gnomes", "Submarine has no gnomes"),
        (GameRequest("red-november", 2, {"gnomes": 3}), "bad_options", "--gnomes must be 4"),
        (GameRequest("red-november", 9), "bad_option", "Option players cannot be 9"),
        (GameRequest("red-november", options={"bogus": 4}), "bad_option", "“bogus”"),
        (GameRequest("red-november", pieces=["colour=red"]), "bad_option", "“colour”"),
    ],
)
def test_one_build_with_the_same_refusals_everywhere(
    request_: GameRequest, code: str, words: str
) -> None:
    with pytest.raises(GameRequestError) as caught:
        build_game(request_, EN)
    assert caught.value.code == code
    assert words in caught.value.message


def test_flags_options_and_pieces_make_one_game() -> None:
    asked = GameRequest(
        "red-november",
        1,
        {"gnomes": 5},
        {"greater_challenge": "2"},
        ["crazed_gnomes"],
    )
    assert asked_options(asked) == {
        "players": 1,
        "gnomes": 5,
        "greater_challenge": 2,
        "crazed_gnomes": True,
    }
    game = build_game(asked, EN)
    assert game.options["gnomes"] == 5 and game.options["crazed_gnomes"] is True
    assert build_game(GameRequest("red-november", 2), EN).options["gnomes"] == 4
