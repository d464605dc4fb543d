"""The tables: users and their addresses, boards with seats and moves, inbound mail, outbox."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    false,
    text,
    true,
)
from sqlalchemy.orm import (
    DeclarativeBase,
    Mapped,
    WriteOnlyMapped,
    mapped_column,
    query_expression,
    relationship,
)

from pbm.db.statuses import BoardStatus, InboundStatus, OutboxStatus, Status, TournamentStatus

# Explicit constraint names keep Alembic migrations stable across databases.
NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class User(Base):
    """A player account. `userid` is stored lower case (userids are case-insensitive)."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(primary_key=True)
    userid: Mapped[str] = mapped_column(String(32), unique=True)
    password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    # Signed-off users keep their row so old boards still name them.
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    # Wrong passwords since the last right one, and until when checks pause (guessing).
    wrong_passwords: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    password_paused_until: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    # Away until then: neither nagged nor forfeited, and their clocks stop (see Vacation).
    vacation_until: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    # Board mails carry a drawn board (a text/html part) unless the user asked for plain text.
    html: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    # A computer player's strength ("easy", "good", "best": games/bots.py), None for a
    # person. A bot has no address and no password; the server moves for it.
    bot: Mapped[str | None] = mapped_column(String(8), nullable=True)

    addresses: Mapped[list[Address]] = relationship(
        back_populates="user", order_by="Address.position", cascade="all, delete-orphan",
        lazy="selectin",
    )


class Address(Base):
    """A mail address of a user; board mails go to every address of the player."""

    __tablename__ = "addresses"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer, default=0)
    address: Mapped[str] = mapped_column(String(320))
    # An address the owner has not shown to be theirs gets nothing but its confirmation
    # request (the token to mail back) until it is confirmed.
    confirmed: Mapped[bool] = mapped_column(Boolean, default=True, server_default=true())
    confirm_token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    confirm_sent_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    # Bounces since the last mail that got through; after too many, mail to it stops.
    bounces: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    last_bounce_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    stopped: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    user: Mapped[User] = relationship(back_populates="addresses")

    __table_args__ = (Index("ix_addresses_address", "address"),
                      Index("ix_addresses_confirm_token", "confirm_token", unique=True))


class Board(Base):
    """One game. Numbered from 101. `state` is a snapshot cache of replaying `moves`."""

    __tablename__ = "boards"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    game: Mapped[str] = mapped_column(String(32))
    # The number players know the board by: from 101 within each game, as in pbmserv
    # (`id` identifies it across games; boards made before numbers per game keep theirs).
    number: Mapped[int] = mapped_column(Integer)
    rules_version: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    seed: Mapped[int] = mapped_column(Integer, default=0)
    status: Mapped[BoardStatus] = mapped_column(Status(BoardStatus), default=BoardStatus.ACTIVE)
    state: Mapped[Any] = mapped_column(JSON)
    move_count: Mapped[int] = mapped_column(Integer, default=0)
    # Set when the game is over: winning seats (empty = draw) and the reason in words.
    winners: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    result_reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    challenger: Mapped[str] = mapped_column(String(32))
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    # Time limits chosen at the challenge (-nagtime=N, -forfeittime=N, in days); None
    # follows the server's [time] defaults.
    nag_days: Mapped[int | None] = mapped_column(Integer, nullable=True)
    forfeit_days: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # A chess clock (--totaltime=N): the days each player may use in all over the game;
    # None for none. Seat.time_used counts what each has used.
    total_days: Mapped[int | None] = mapped_column(Integer, nullable=True)
    # Set when a finished game changed ratings: the order in which finished games were
    # rated (`pbm ratings rebuild` replays them in it) and each seat's [before, after].
    rating_seq: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rating_changes: Mapped[list[list[int]] | None] = mapped_column(JSON, nullable=True)
    # An open vote: {"kind": "draw" | "undo", "by": seat, "accepted": [seats]}.
    proposal: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # The last moves of the log, oldest first, each as the fields of a LoggedMove: what a
    # board mail lists, kept with the board so that a move need not read the log back
    # (boards/position.py). None for a board from before they were kept, until its next move.
    recent_moves: Mapped[list[list[Any]] | None] = mapped_column(JSON, nullable=True)
    # A tournament's boards are named with its letters before their number, as pbmserv's
    # (`a101`), and numbered from 101 within the tournament; "" for every other board.
    prefix: Mapped[str] = mapped_column(String(4), default="", server_default=text("''"))
    # Whether anyone watches the board (a Subscription), where the query that loaded it
    # asked (boards.select.load_board does, in the board's one query); None where it did
    # not. Not a column: it spares a move on a board nobody watches the spectators' query.
    # Kept through a flush (no write to the board changes it; subscribe() sets it).
    has_spectators: Mapped[bool | None] = query_expression(expire_on_flush=False)
    # The same for end notices (`notify`) of this board or of its game: the `Notifiers:`
    # line of its mails needs a query only where someone waits (watchers.notices_added).
    has_notifiers: Mapped[bool | None] = query_expression(expire_on_flush=False)

    # Every use of a board needs its seats, players and their addresses: load them at once.
    seats: Mapped[list[Seat]] = relationship(
        back_populates="board", order_by="Seat.position", cascade="all, delete-orphan",
        lazy="selectin",
    )
    # Write-only: a move appends one row and reads the few it shows, never the whole log.
    moves: WriteOnlyMapped[Move] = relationship(
        back_populates="board", order_by="Move.number", cascade="all, delete-orphan",
        passive_deletes=True,
    )

    # finished_at too: listings show finished boards until they are archived.
    __table_args__ = (Index("ix_boards_game_status_finished", "game", "status", "finished_at"),
                      Index("ix_boards_rating_seq", "rating_seq", unique=True),
                      Index("ix_boards_game_prefix_number", "game", "prefix", "number",
                            unique=True))

    @property
    def label(self) -> str:
        """The board's name as players write it: 101, or a101 in a tournament."""
        return f"{self.prefix}{self.number}"


class Seat(Base):
    """Who plays which seat of a board, and whether they have queued a resignation."""

    __tablename__ = "seats"

    board_id: Mapped[int] = mapped_column(
        ForeignKey("boards.id", ondelete="CASCADE"), primary_key=True
    )
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    resign_queued: Mapped[bool] = mapped_column(Boolean, default=False)
    # The clock: since when this seat has been to move (None when it is not), the nags
    # sent in this turn, and how long it had waited (seconds, vacations left out) at the
    # first and the last of them. Housekeeping looks at a seat again at `next_check_at`.
    waiting_since: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    nags: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    first_nag_wait: Mapped[int | None] = mapped_column(Integer, nullable=True)
    last_nag_wait: Mapped[int | None] = mapped_column(Integer, nullable=True)
    next_check_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    # A move queued for the seat's next turn: {"move": "K10"}, or conditional on the
    # opponent's coming move: {"when": [["L11", "K10"], ["M2", "J9"]]}.
    queued: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    # A move sent with `submit`, in the game's notation with its #n guard ("2B3#4"), played
    # by `confirm` (pbm.boards.submission).
    submitted: Mapped[str | None] = mapped_column(Text, nullable=True)
    # Seconds this seat has been to move, summed over its finished turns (the running one
    # counts from waiting_since): what a total-time board limits, what clock blocks print.
    time_used: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    board: Mapped[Board] = relationship(back_populates="seats")
    user: Mapped[User] = relationship(lazy="joined")

    __table_args__ = (Index("ix_seats_user_id", "user_id"),
                      Index("ix_seats_next_check_at", "next_check_at"))


class Move(Base):
    """One entry of a board's move log, the source of truth for its state."""

    __tablename__ = "moves"

    board_id: Mapped[int] = mapped_column(
        ForeignKey("boards.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1-based
    seat: Mapped[int] = mapped_column(Integer)
    notation: Mapped[str] = mapped_column(Text)  # canonical, full (may hold secrets)
    # What other viewers see while the game runs, where it differs: {"0": "...", "none": ..}
    shown: Mapped[dict[str, str]] = mapped_column(JSON, default=dict)
    comment: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    # "move", or "takeback": the players agreed to undo the last move still standing (the
    # log keeps both, so the history stays truthful).
    kind: Mapped[str] = mapped_column(String(16), default="move", server_default="move")
    auto: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())  # queued

    board: Mapped[Board] = relationship(back_populates="moves")


class Vacation(Base):
    """A time a player is away: their clocks stop. Kept to count the yearly allowance."""

    __tablename__ = "vacations"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    starts_at: Mapped[datetime] = mapped_column(DateTime)
    ends_at: Mapped[datetime] = mapped_column(DateTime)  # moved forward by `vacation off`

    __table_args__ = (Index("ix_vacations_user_id", "user_id"),)


class Rating(Base):
    """A player's rating and record in one game."""

    __tablename__ = "ratings"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                         primary_key=True)
    rating: Mapped[int] = mapped_column(Integer)
    won: Mapped[int] = mapped_column(Integer, default=0)
    lost: Mapped[int] = mapped_column(Integer, default=0)
    tied: Mapped[int] = mapped_column(Integer, default=0)

    @property
    def finished(self) -> int:
        return self.won + self.lost + self.tied


class Subscription(Base):
    """A spectator of a board: mailed every board mail, from the public's view."""

    __tablename__ = "subscriptions"

    board_id: Mapped[int] = mapped_column(ForeignKey("boards.id", ondelete="CASCADE"),
                                          primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                         primary_key=True)

    __table_args__ = (Index("ix_subscriptions_user_id", "user_id"),)


class EndNotice(Base):
    """Someone to tell when a board ends, or (board None) when any board of a game does."""

    __tablename__ = "end_notices"

    id: Mapped[int] = mapped_column(primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    game: Mapped[str] = mapped_column(String(32))
    board_id: Mapped[int | None] = mapped_column(
        ForeignKey("boards.id", ondelete="CASCADE"), nullable=True)

    __table_args__ = (Index("ix_end_notices_game_board", "game", "board_id"),)


class ChallengePolicy(Base):
    """What a player accepts in one game: challenges at all, how many boards, and how many
    more they are seeking."""

    __tablename__ = "challenge_policies"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                         primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    refuses: Mapped[bool] = mapped_column(Boolean, default=False)
    board_limit: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seeking: Mapped[int] = mapped_column(Integer, default=0)
    # Since when they have waited for an opponent (None: not seeking): pairing offers a bot
    # to one who has waited long enough (pbm/commands/pairing.py).
    seeking_since: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)


class Tournament(Base):
    """A tournament of one game: its players join while it is open, then it is played in
    rounds (round robin in pools, Swiss, or knockout) on boards named with its prefix."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    name: Mapped[str] = mapped_column(String(32))
    prefix: Mapped[str] = mapped_column(String(4))  # its boards' names: a101, a102, ...
    format: Mapped[str] = mapped_column(String(16))  # roundrobin | swiss | knockout
    rounds: Mapped[int | None] = mapped_column(Integer, nullable=True)  # Swiss; None: log2 n
    pool_size: Mapped[int] = mapped_column(Integer)  # round robin: players per pool at most
    nag_days: Mapped[int] = mapped_column(Integer)
    forfeit_days: Mapped[int] = mapped_column(Integer)
    organiser_id: Mapped[int | None] = mapped_column(
        ForeignKey("users.id", ondelete="SET NULL"), nullable=True)  # None: the operator
    status: Mapped[TournamentStatus] = mapped_column(Status(TournamentStatus),
                                                     default=TournamentStatus.OPEN)
    round: Mapped[int] = mapped_column(Integer, default=0)  # the round in play (0: none yet)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    started_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)

    entries: Mapped[list[TournamentEntry]] = relationship(
        back_populates="tournament", order_by="TournamentEntry.joined_at",
        cascade="all, delete-orphan", lazy="selectin")

    __table_args__ = (Index("ix_tournaments_game_name", "game", "name", unique=True),
                      Index("ix_tournaments_game_prefix", "game", "prefix", unique=True))


class TournamentEntry(Base):
    """A player in a tournament: their rating when it started (the seeding), their pool,
    and when they withdrew (their games left are forfeits; those played stand)."""

    __tablename__ = "tournament_entries"

    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id"), primary_key=True)
    joined_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    rating: Mapped[int | None] = mapped_column(Integer, nullable=True)
    pool: Mapped[int | None] = mapped_column(Integer, nullable=True)
    withdrawn_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)

    tournament: Mapped[Tournament] = relationship(back_populates="entries")
    user: Mapped[User] = relationship(lazy="joined")


class TournamentGame(Base):
    """One pairing of a round: a board between two players, or a bye (no board, no second
    player). `outcome` is set when it is decided: "0" or "1" (that seat won; "0w", "1w"
    by a walkover or forfeit), "draw", "bye", "lost" (both withdrawn: lost by both)."""

    __tablename__ = "tournament_games"

    id: Mapped[int] = mapped_column(primary_key=True)
    tournament_id: Mapped[int] = mapped_column(
        ForeignKey("tournaments.id", ondelete="CASCADE"))
    round: Mapped[int] = mapped_column(Integer)
    pool: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    board_id: Mapped[int | None] = mapped_column(
        ForeignKey("boards.id", ondelete="SET NULL"), nullable=True)
    seat0_id: Mapped[int] = mapped_column(ForeignKey("users.id"))
    seat1_id: Mapped[int | None] = mapped_column(ForeignKey("users.id"), nullable=True)
    outcome: Mapped[str | None] = mapped_column(String(8), nullable=True)
    # Knockout: a drawn game is played again with the seats swapped (1 for that replay).
    replay: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    __table_args__ = (Index("ix_tournament_games_tournament_round", "tournament_id", "round"),
                      Index("ix_tournament_games_board_id", "board_id"))


class LadderRung(Base):
    """A player's place on a game's ladder: rank 1 is the top, a newcomer joins at the
    bottom. `wins` and `losses` count ladder games only (the rating counts them all)."""

    __tablename__ = "ladder_rungs"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"),
                                         primary_key=True)
    # Not unique: a win moves several ranks by one in one statement, and a unique index
    # would be checked row by row on the way (SQLite, PostgreSQL without deferral).
    rank: Mapped[int] = mapped_column(Integer)
    joined_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    wins: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    losses: Mapped[int] = mapped_column(Integer, default=0, server_default="0")

    user: Mapped[User] = relationship(lazy="joined")

    __table_args__ = (Index("ix_ladder_rungs_game_rank", "game", "rank"),)


class LadderGame(Base):
    """A ladder challenge and its board. `outcome` is None while it is open, then "won"
    (the challenger won and moved up), "lost" (the challenged player held their place:
    a loss, a draw or a decline by the challenger) or "forfeit" (the challenged player
    never moved: the challenger moved up)."""

    __tablename__ = "ladder_games"

    id: Mapped[int] = mapped_column(primary_key=True)
    game: Mapped[str] = mapped_column(String(32))
    board_id: Mapped[int | None] = mapped_column(
        ForeignKey("boards.id", ondelete="SET NULL"), nullable=True)
    challenger_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    challenged_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    outcome: Mapped[str | None] = mapped_column(String(8), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)

    __table_args__ = (Index("ix_ladder_games_board_id", "board_id"),
                      Index("ix_ladder_games_game_outcome", "game", "outcome"))


class InboundMessage(Base):
    """A received mail, stored raw before it is answered: never lost, never applied twice."""

    __tablename__ = "inbound_messages"

    id: Mapped[int] = mapped_column(primary_key=True)
    # Message-ID, or a digest of the raw bytes when the mail has none.
    message_key: Mapped[str] = mapped_column(String(512), unique=True)
    envelope_from: Mapped[str] = mapped_column(String(320), default="")
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    received_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    status: Mapped[InboundStatus] = mapped_column(Status(InboundStatus),
                                                  default=InboundStatus.PENDING)
    error: Mapped[str | None] = mapped_column(Text, nullable=True)
    processed_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)

    __table_args__ = (Index("ix_inbound_messages_status", "status"),)


class OutboxMail(Base):
    """A reply waiting for delivery, written in the same transaction as what caused it."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(primary_key=True)
    inbound_id: Mapped[int | None] = mapped_column(
        ForeignKey("inbound_messages.id", ondelete="SET NULL"), nullable=True
    )
    recipient: Mapped[str] = mapped_column(String(320))
    subject: Mapped[str] = mapped_column(Text)
    raw: Mapped[bytes] = mapped_column(LargeBinary)  # the complete RFC 5322 message
    # Its Message-ID header: a bounce counts only when it names the id of a mail to that
    # very address (bounces.py), looked up here, never searched for in mail text.
    message_id: Mapped[str | None] = mapped_column(String(512), nullable=True)
    # pending -> sending (claimed by a courier) -> sent, or failed (for the operator)
    status: Mapped[OutboxStatus] = mapped_column(Status(OutboxStatus),
                                                 default=OutboxStatus.PENDING)
    attempts: Mapped[int] = mapped_column(Integer, default=0)
    next_attempt_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    last_error: Mapped[str | None] = mapped_column(Text, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime, default=utcnow)
    sent_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    # A courier takes a batch (status "sending") before it delivers, so two never send the
    # same mail; `claimed_by` names it ("host:pid") so a dead one's batch can be taken back.
    claimed_by: Mapped[str | None] = mapped_column(String(100), nullable=True)
    claimed_at: Mapped[datetime | None] = mapped_column(DateTime, nullable=True)
    # Taken back from a courier that died mid-batch: it may have gone out already.
    maybe_sent: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    __table_args__ = (Index("ix_outbox_status_next", "status", "next_attempt_at"),
                      Index("ix_outbox_message_id", "message_id"))


class RateCounter(Base):
    """How often something happened in the current window (a sender's mails this hour, a
    player's challenges today, wrong passwords from an address): the rate limits."""

    __tablename__ = "rate_counters"

    key: Mapped[str] = mapped_column(String(400), primary_key=True)  # "mails-from:a@x.org"
    window_start: Mapped[datetime] = mapped_column(DateTime)
    # Events in the window, refused ones too: limit + 1 is the first refusal (one notice).
    count: Mapped[int] = mapped_column(Integer, default=0)


class MailboxMark(Base):
    """Where IMAP intake (pbm/mail/imap.py) started reading a mailbox: the mail that was in
    it on the first start is an old backlog, not answered unless the operator says so. UIDs
    count only within one UIDVALIDITY; when the server renumbers, the time of the first
    start decides instead."""

    __tablename__ = "mailbox_marks"

    mailbox: Mapped[str] = mapped_column(String(400), primary_key=True)  # user@host/folder
    uidvalidity: Mapped[int] = mapped_column(BigInteger)
    first_uid: Mapped[int] = mapped_column(BigInteger)  # the first UID read (UIDNEXT then)
    started_at: Mapped[datetime] = mapped_column(DateTime)


__all__ = [
    "Address",
    "BoardStatus",
    "InboundStatus",
    "OutboxStatus",
    "Base",
    "Board",
    "ChallengePolicy",
    "EndNotice",
    "InboundMessage",
    "MailboxMark",
    "Move",
    "OutboxMail",
    "RateCounter",
    "Rating",
    "Seat",
    "Subscription",
    "User",
    "Vacation",
    "utcnow",
]
