"""Boards drawn in HTML for the text/html part of board mails; one module per game."""
