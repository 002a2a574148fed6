"""Golden playthroughs: seeded random games whose final digests are committed.

    python scripts/golden.py            # check (exit 1 on any drift)
    python scripts/golden.py --write    # regenerate after a deliberate rules change

A change of any rule, component or notation changes some digest; when that is
intended, bump the game's ruleset version and regenerate. ``tests/test_golden.py``
runs the check.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from subtable.core.registry import make_game
from subtable.core.rng import Rng

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "golden" / "playthroughs.json"
CASES: list[tuple[str, dict[str, Any]]] = [
    ("red-november", {"players": 4}),
    ("red-november", {"players": 1, "gnomes": 4, "greater_challenge": 2}),
    ("red-november", {"players": 6, "crazed_gnomes": True, "less_deadly_dying": True}),
    ("red-november", {"players": 3, "greater_challenge": 1, "heroic_sacrifice": True}),
    ("submarine", {"players": 2}),
    ("submarine", {"players": 3}),
    ("submarine", {"players": 5}),
]
SEEDS = range(10)


def playthroughs() -> list[dict[str, Any]]:
    """Play every case and seed with the fixed random policy."""
    rows = []
    for name, options in CASES:
        try:
            game = make_game(name, **options)
        except ImportError:
            continue
        for seed in SEEDS:
            state = game.new_state(seed)
            policy = Rng(seed ^ 0x601DE4)
            while not state.is_terminal():
                ids = state.legal_action_ids()
                state.apply_unchecked(ids[policy.below(len(ids))])
            outcome = state.outcome()
            assert outcome is not None
            rows.append(
                {
                    "game": name,
                    "options": options,
                    "seed": seed,
                    "ruleset": game.ruleset,
                    "decisions": len(state.history),
                    "reason": outcome.reason,
                    "digest": state.digest(),
                }
            )
    return rows


def drift(expected: list[dict[str, Any]], actual: list[dict[str, Any]]) -> list[str]:
    """Human-readable differences."""
    index = {(r["game"], json.dumps(r["options"], sort_keys=True), r["seed"]): r for r in actual}
    out = []
    for row in expected:
        key = (row["game"], json.dumps(row["options"], sort_keys=True), row["seed"])
        got = index.get(key)
        if got is None:
            out.append(f"{key}: no longer played")
        elif got != row:
            out.append(
                f"{key}: {row['reason']}/{row['decisions']} -> {got['reason']}/{got['decisions']}"
            )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="regenerate the golden file")
    args = parser.parse_args()
    rows = playthroughs()
    if args.write:
        GOLDEN.write_text(json.dumps(rows, indent=1) + "\n")
        print(f"wrote {len(rows)} playthroughs to {GOLDEN}")
        return 0
    problems = drift(json.loads(GOLDEN.read_text()), rows)
    for p in problems:
        print(p)
    print("ok" if not problems else f"{len(problems)} playthroughs drifted")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
