"""The statuses a board, a received mail and an outgoing mail go through, as types."""

from __future__ import annotations

from enum import StrEnum
from typing import Any, Generic, TypeVar

from sqlalchemy import Dialect, String
from sqlalchemy.types import TypeDecorator


class BoardStatus(StrEnum):
    ACTIVE = "active"
    FINISHED = "finished"
    DECLINED = "declined"  # a player left before their first move: the board is gone


class TournamentStatus(StrEnum):
    OPEN = "open"  # players join and leave; the organiser starts it
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"  # by its organiser or the operator; its boards play on, unrated


class InboundStatus(StrEnum):
    PENDING = "pending"  # stored, not handled yet
    DONE = "done"
    FAILED = "failed"  # hit a bug: waits for the operator (`pbm inbox retry`)
    IGNORED = "ignored"  # a robot, ourselves, or an out-of-office: never answered
    THROTTLED = "throttled"  # its sender was over the hourly rate: not carried out
    REJECTED = "rejected"  # outside the limits for reading a mail (on a retry)
    BOUNCE = "bounce"  # a delivery failure report: never answered; `error` says what it named


class OutboxStatus(StrEnum):
    PENDING = "pending"  # waiting (maybe for a retry)
    SENDING = "sending"  # claimed by a courier
    SENT = "sent"
    FAILED = "failed"  # refused for good, or given up: `pbm outbox retry` resends it


S = TypeVar("S", bound=StrEnum)


class Status(TypeDecorator[S], Generic[S]):
    """A status column: stored as its short text (portable, no database enum type), read
    back as the enum, and refused on the way in when it is not one of the enum's values."""

    impl = String(16)
    cache_ok = True

    def __init__(self, enum: type[S]):
        super().__init__()
        self.enum = enum

    def process_bind_param(self, value: Any, dialect: Dialect) -> str | None:
        return None if value is None else self.enum(value).value

    def process_result_value(self, value: Any, dialect: Dialect) -> S | None:
        return None if value is None else self.enum(value)
