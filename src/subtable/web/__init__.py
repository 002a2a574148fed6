"""The web table: ``subtable serve`` (HTTP + WebSocket) and its terminal client ``subtable join``.

The server is a layer around the same engines: a table is its game, options,
seed and ordered list of entries (actions and undos), kept in a database and
replayed into a live :class:`~subtable.core.game.State` in memory. See
``docs/protocol.md`` for the wire protocol.
"""

PROTOCOL_VERSION = 1

__all__ = ["PROTOCOL_VERSION"]
