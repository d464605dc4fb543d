"""Password hashing with argon2, and a memory of recent successful checks."""

from __future__ import annotations

import hashlib
import hmac
import os
import threading
from collections import OrderedDict

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_hasher = PasswordHasher()

# Deriving an argon2 hash is slow on purpose (tens of milliseconds). A busy server sees the
# same userid+password on every move, so a successful check is remembered, keyed by a keyed
# hash: the memory never holds a password, and the key dies with the process.
_CACHE_KEY = os.urandom(32)
_CACHE_SIZE = 4096
_verified: OrderedDict[bytes, None] = OrderedDict()
_lock = threading.Lock()  # checks run in several threads of `pbm serve` at once


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def token(userid: str, password: str, stored_hash: str) -> bytes:
    """What identifies one check without holding the password: a keyed hash. The stored hash
    is part of it, so a check made before a password change says nothing after it."""
    return hmac.new(
        _CACHE_KEY, f"{userid}\0{password}\0{stored_hash}".encode(), hashlib.sha256
    ).digest()


def check_password(userid: str, password: str, stored_hash: str,
                   refuted: frozenset[bytes] = frozenset()) -> bool:
    """True when `password` matches `stored_hash` (case-sensitive).

    `refuted` holds tokens already found wrong (ahead of the writer): those cost no hash."""
    key = token(userid, password, stored_hash)
    with _lock:
        if key in _verified:
            _verified.move_to_end(key)
            return True
    if key in refuted:
        return False
    try:
        _hasher.verify(stored_hash, password)
    except (VerificationError, InvalidHashError):
        return False
    with _lock:
        _verified[key] = None
        if len(_verified) > _CACHE_SIZE:
            _verified.popitem(last=False)
    return True
