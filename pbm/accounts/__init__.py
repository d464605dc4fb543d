"""Player accounts: finding and checking users, password hashes, guessing throttled."""
