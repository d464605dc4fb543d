"""Password hashing with argon2, and a memory of recent successful checks."""

from __future__ import annotations

import hashlib
import hmac
import os
import threading
from collections import OrderedDict

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

# OWASP's parameters for argon2id (19 MiB, 2 passes, 1 lane): about 20 ms a check here, where
# argon2-cffi's default profile (64 MiB, 3 passes, 4 lanes) took 120 ms. A mail server checks
# a password for every move, and `pbm process` does it in a new process for every mail,
# so that cost is paid per move; 20 ms is still far beyond what offline guessing can afford.
# Hashes made with other parameters still verify, and are remade at the next right password.
_hasher = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)

# Deriving an argon2 hash is slow on purpose (tens of milliseconds). A busy server sees the
# same userid+password on every move, so a successful check is remembered, keyed by a keyed
# hash: the memory never holds a password, and the key dies with the process.
_CACHE_KEY = os.urandom(32)
_CACHE_SIZE = 4096
_verified: OrderedDict[bytes, None] = OrderedDict()
# The same, without the stored hash: "this userid+password was right lately", so a mail's
# passwords need no database read before the writer (which checks them against the hash).
_right_lately: OrderedDict[bytes, None] = OrderedDict()
_lock = threading.Lock()  # checks run in several threads of `pbm serve` at once


def hash_password(password: str) -> str:
    return _hasher.hash(password)


def outdated(stored_hash: str) -> bool:
    """Whether the hash was made with other parameters than ours (it is remade then)."""
    try:
        return _hasher.check_needs_rehash(stored_hash)
    except Exception:  # not an argon2 hash at all: leave it to the check to refuse
        return False


def token(userid: str, password: str, stored_hash: str) -> bytes:
    """What identifies one check without holding the password: a keyed hash. The stored hash
    is part of it, so a check made before a password change says nothing after it."""
    return hmac.new(
        _CACHE_KEY, f"{userid}\0{password}\0{stored_hash}".encode(), hashlib.sha256
    ).digest()


def _pair(userid: str, password: str) -> bytes:
    return hmac.new(_CACHE_KEY, f"{userid}\0{password}".encode(), hashlib.sha256).digest()


def _remember(memory: OrderedDict[bytes, None], key: bytes) -> None:
    memory[key] = None
    memory.move_to_end(key)
    if len(memory) > _CACHE_SIZE:
        memory.popitem(last=False)


def right_lately(userid: str, password: str) -> bool:
    """Whether this userid+password passed a check lately (the hash may have changed since:
    only a hint that checking ahead is not needed)."""
    with _lock:
        return _pair(userid, password) in _right_lately


def check_password(userid: str, password: str, stored_hash: str,
                   refuted: frozenset[bytes] = frozenset()) -> bool:
    """True when `password` matches `stored_hash` (case-sensitive).

    `refuted` holds tokens already found wrong (ahead of the writer): those cost no hash."""
    key = token(userid, password, stored_hash)
    with _lock:
        if key in _verified:
            _verified.move_to_end(key)
            _remember(_right_lately, _pair(userid, password))
            return True
    if key in refuted:
        return False
    try:
        _hasher.verify(stored_hash, password)
    except (VerificationError, InvalidHashError):
        return False
    with _lock:
        _remember(_verified, key)
        _remember(_right_lately, _pair(userid, password))
    return True
