"""The database tables (SQLAlchemy Core). Alembic migrations create them: see ``migrations/``."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
)

metadata = MetaData()

#: one row per table: what it plays and with whom; the seed stays here until the game ends
tables = Table(
    "tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(32), nullable=False),
    Column("options", JSON, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("controllers", JSON, nullable=False),
    Column("lang", String(8), nullable=False),
    Column("spectator_hash", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("finished", Boolean, nullable=False, default=False),
    Column("outcome", JSON, nullable=True),
    #: a digest of the address that opened it (the caps per client count these)
    Column("creator", String(32), nullable=True),
    #: why it closed before its game ended (``abandoned``); it then takes no more entries
    Column("closed", String(32), nullable=True),
    #: ``public`` (listed in the lobby while a person's seat is open) or ``private``
    Column("visibility", String(8), nullable=True),
    #: ``live`` or ``turn-based``; a turn-based table gives each decision ``turn_limit``
    #: seconds, after which ``late`` applies (``bot``: a bot plays it; ``abandon``)
    Column("mode", String(16), nullable=True),
    Column("turn_limit", Float, nullable=True),
    Column("late", String(8), nullable=True),
    #: when the person deciding now runs out of time (wall clock), if anyone does
    Column("deadline", Float, nullable=True),
    #: whether players may ask the expert for advice (``None``: the default for its game
    #: and people, ``subtable.words.advice.advice_allowed``)
    Column("advice", Boolean, nullable=True),
    #: where the game turned, once computed for the finished game (``web/turning.py``)
    Column("turning", JSON, nullable=True),
    #: whether the game began: a public table with people's seats still open waits for
    #: them (no move is made) until the last is claimed or ``host`` starts it, bots taking
    #: the open seats (``None``: a table older than waiting, begun at creation)
    Column("started", Boolean, nullable=True),
    #: the player who opened a public table (the first named at creation), who may start it
    Column("host", Integer, nullable=True),
)

#: each time a player asked the expert for advice (public: the log says so), in order
advice_asked = Table(
    "advice_asked",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("seq", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("created_at", Float, nullable=False),
)

#: each person's display name at a table
player_names = Table(
    "player_names",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("player", Integer, primary_key=True),
    Column("name", String(64), nullable=False),
)

#: what people said at a table, in order; ``seq`` is the entry it was said after
chat = Table(
    "chat",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("seq", Integer, nullable=False),
    Column("player", Integer, nullable=False),
    Column("text", String(2000), nullable=False),
    Column("created_at", Float, nullable=False),
)

#: the hashed invite token of each human player
seat_tokens = Table(
    "seat_tokens",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("player", Integer, primary_key=True),
    Column("token_hash", String(64), nullable=False, unique=True),
)

#: the ordered log of a table: ``action`` (canonical notation) or ``undo``
entries = Table(
    "entries",
    metadata,
    Column("table_id", String(32), ForeignKey("tables.id"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("seat", Integer, nullable=True),
    Column("action", String(64), nullable=False),
    Column("created_at", Float, nullable=False),
)
