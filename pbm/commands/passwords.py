"""Password hashing with argon2, and a memory of recent successful checks."""

from __future__ import annotations

import hashlib
import hmac
import os
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


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def check_password(userid: str, password: str, stored_hash: str) -> bool:
    """True when `password` matches `stored_hash` (case-sensitive)."""
    token = hmac.new(
        _CACHE_KEY, f"{userid}\0{password}\0{stored_hash}".encode(), hashlib.sha256
    ).digest()
    if token in _verified:
        _verified.move_to_end(token)
        return True
    try:
        _hasher.verify(stored_hash, password)
    except (VerificationError, InvalidHashError):
        return False
    _verified[token] = None
    if len(_verified) > _CACHE_SIZE:
        _verified.popitem(last=False)
    return True
