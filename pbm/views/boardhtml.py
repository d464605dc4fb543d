"""The text/html part of a board mail: the text part's own lines around the drawn board.

The document is made only of what the text part already says (escaped) and the game's
draw() for the same viewer, so it can never show a reader more than their text part does.
What mail clients render: inline styles, no <style> block, no script, nothing fetched.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from html import escape

START = ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
         '<meta name="viewport" content="width=device-width, initial-scale=1">\n')


@functools.cache
def _styles() -> tuple[str, str, str]:
    """The inline styles of the <body>, of text paragraphs and of the <pre>, in the
    pictures' palette (imported only when a mail is drawn: `pbm process` for a command
    that mails no board never loads it)."""
    from pbm.games.kit import FONT, TEXT, css

    body = f"{css(margin=0, padding=8, background='#ffffff', color=TEXT)};{FONT}"
    head = f"{css(font_size=14, line_height='1.4', margin='0 0 8px', color=TEXT)};{FONT}"
    # A 76-column line fits a phone's width at 2vw (a monospace glyph is about 0.6em
    # wide); the first font-size is for clients that do not know min(); a wider line
    # scrolls inside the <pre> rather than widening the page.
    pre = ";".join((
        "font-family:Menlo,Consolas,'DejaVu Sans Mono','Courier New',monospace",
        css(font_size=11), "font-size:min(12px,2vw)",
        css(line_height="1.25", white_space="pre", overflow_x="auto", margin="10px 0",
            color=TEXT)))
    return body, head, pre


def document(head: str, picture: str, rest: str) -> str:
    """A whole board mail in HTML: `head` (the lines above the move list, as text), the
    picture (draw()'s fragment), then `rest` (move list, ASCII board, comments) as text."""
    return _page(head, section(head, picture, rest))


def section(head: str, picture: str, rest: str) -> str:
    """The inside of a board mail's <body>: it can stand next to others in one mail."""
    return f"{paragraphs(head)}\n{picture}\n{preformatted(rest)}\n"


def paragraphs(text: str) -> str:
    """Lines of text as paragraphs: a blank line starts a new one."""
    blocks = [block.split("\n") for block in text.split("\n\n") if block.strip()]
    head = _styles()[1]
    return "".join(f'<p style="{head}">' + "<br>".join(_text(line) for line in lines)
                   + "</p>" for lines in blocks)


def preformatted(text: str) -> str:
    """Text kept as it is laid out (the move list's columns, the ASCII board)."""
    return f'<pre style="{_styles()[2]}">' + _text(text.rstrip("\n")) + "</pre>"


def combined(intro: str, answers: Iterable[tuple[str, str, str | None]],
             left_out: str = "") -> str:
    """One document for several answers (subject, text, its own document or None), in order,
    as replies.merge() joins their texts; `left_out` says what did not fit."""
    parts = [paragraphs(intro)]
    for subject, text, html in answers:
        parts.append(f'<h3 style="{_styles()[1]}">=== {_text(subject)} ===</h3>')
        parts.append(_inside_body(html) if html is not None else preformatted(text))
    if left_out:
        parts.append(preformatted(left_out))
    return _page(intro, "".join(parts) + "\n")


def _page(text: str, inside: str) -> str:
    """The document around `inside`, titled by the first line of `text`."""
    title = _text(text.split("\n", 1)[0])
    return (f"{START}<title>{title}</title></head>\n<body style=\"{_styles()[0]}\">\n"
            f"{inside}</body></html>\n")


def _text(text: str) -> str:
    """Text as it may stand in an element: <, > and & escaped (quotes need not be)."""
    return escape(text, quote=False)


def _inside_body(html: str) -> str:
    """The inside of the <body> of a document made by document() above."""
    start = html.index(">", html.index("<body")) + 1
    return html[start:html.rindex("</body>")]
