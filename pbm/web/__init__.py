"""The read-only web view: pages of boards, games and players, their feeds and records."""
