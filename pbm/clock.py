"""The one clock: what time pbm thinks it is. Tests and `pbm tick --now` set it; nothing
else asks the system for the date where a game's time is concerned."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Protocol


class Clock(Protocol):
    def now(self) -> datetime:
        """Now, in UTC, without a time zone (as the store keeps times)."""
        ...


class SystemClock:
    def now(self) -> datetime:
        return datetime.now(UTC).replace(tzinfo=None)


@dataclass
class FixedClock:
    """A clock that stands still until moved: for tests and for looking ahead."""

    at: datetime

    def now(self) -> datetime:
        return self.at

    def advance(self, days: float = 0, hours: float = 0) -> datetime:
        self.at += timedelta(days=days, hours=hours)
        return self.at


SYSTEM = SystemClock()


def parse_moment(text: str) -> datetime:
    """A moment as an operator writes it: 2027-01-15T12:00 or 2027-01-15 (UTC)."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"'{text}' is not a date and time; write it like 2027-01-15T12:00 "
                         "(UTC)") from None
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment
