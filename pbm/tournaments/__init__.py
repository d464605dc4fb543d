"""Tournament mathematics: standings, pools, round-robin, Swiss and knockout pairings.

Pure functions of plain dataclasses (results.py): no database, no mail, no clock; players are
userids (str). The service layer stores what these functions decide and starts the boards.
Seat 0 of a pairing is called white here (it moves first, as in pbm's games), seat 1 black.
"""
