"""subtable: rules-exact digital editions of Red November and Submarine.

The engine lives in :mod:`subtable.core` (game-agnostic) and
:mod:`subtable.games` (one package per game). Everything else — bots, the
simulation lab, the command line — is a layer around the same engine.
"""

__version__ = "0.1.0"
