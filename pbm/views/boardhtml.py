"""The text/html part of a board mail: the text part's own lines around the drawn board.

The document is made only of what the text part already says (escaped) and the game's
draw() for the same viewer, so it can never show a reader more than their text part does.
What mail clients render: class rules in one <style> block in the head (the picture's
sheet, games/kit.py), no script, nothing fetched.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Sequence
from html import escape

from pbm.games.kit import FONT, TEXT, Sheet, css, look_of

START = ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
         '<meta name="viewport" content="width=device-width, initial-scale=1">\n')

# The document's own rules, in the pictures' palette.
MAIL = Sheet("m")
_BODY = MAIL.rule("b", f"{css(margin=0, padding=8, background='#ffffff', color=TEXT)};{FONT}")
_HEAD = MAIL.rule("p", css(font_size=14, line_height="1.4", margin="0 0 8px", color=TEXT)
                  + f";{FONT}")
# A 76-column line fits a phone's width at 2vw (a monospace glyph is about 0.6em wide);
# a wider line scrolls inside the <pre> rather than widening the page. The rule's
# font-size is for clients that do not know min(); min() itself stays on the element, as a
# client that cannot read a rule may throw the whole <style> block away (Gmail does).
_PRE = MAIL.rule("x", ";".join((
    "font-family:Menlo,Consolas,'DejaVu Sans Mono','Courier New',monospace",
    css(font_size=11, line_height="1.25", white_space="pre", overflow_x="auto",
        margin="10px 0", color=TEXT))))
_PRE_SIZE = "font-size:min(12px,2vw)"
# A drawn table (a tournament's standings): ruled cells, figures right-aligned.
_TABLE = MAIL.rule("t", css(border_collapse="collapse", margin="8px 0") + f";{FONT}")
_CELL = MAIL.rule("c", css(border="1px solid #c8c8c8", padding="2px 8px", font_size=13,
                           color=TEXT, text_align="left"))
_FIGURE = MAIL.rule("n", css(text_align="right"))
_HEADING = MAIL.rule("h", css(background="#eeeeee", font_weight="bold"))
_STYLE_START, _STYLE_END = "<style>\n", "</style>\n"
# The classes an element names: quoted, or one word unquoted (games/kit.py look_of()).
_CLASSES = re.compile(r' class=(?:"([^"]*)"|([a-z][a-z0-9]*))')


def document(head: str, picture: str, rest: str, style: str = "", link: str = "") -> str:
    """A whole board mail in HTML: `head` (the lines above the move list, as text), the
    picture (draw()'s fragment, whose classes `style` gives: its Sheet's css()), then
    `rest` (move list, ASCII board, comments) as text, and `link` (the board's web page,
    built from the settings, never from a mail) where there is one."""
    inside = section(head, picture, rest)
    if link:
        inside += (f'<p{look_of(_HEAD)}>This board on the web: '
                   f'<a href="{escape(link)}">{_text(link)}</a></p>\n')
    return _page(head, inside, [style])


def section(head: str, picture: str, rest: str) -> str:
    """The inside of a board mail's <body>: it can stand next to others in one mail."""
    return f"{paragraphs(head)}\n{picture}\n{preformatted(rest)}\n"


def paragraphs(text: str) -> str:
    """Lines of text as paragraphs: a blank line starts a new one."""
    blocks = [block.split("\n") for block in text.split("\n\n") if block.strip()]
    return "".join(f"<p{look_of(_HEAD)}>" + "<br>".join(_text(line) for line in lines)
                   + "</p>\n" for lines in blocks)


def preformatted(text: str) -> str:
    """Text kept as it is laid out (the move list's columns, the ASCII board)."""
    return f'<pre{look_of(_PRE)} style="{_PRE_SIZE}">' + _text(text.rstrip("\n")) + "</pre>"


def table_document(head: str, tables: Iterable[tuple[list[str], list[list[str]]]],
                   rest: str, figures: Collection[int] | None = None,
                   captions: Sequence[str] = ()) -> str:
    """A mail of tables: `head` as paragraphs, each table (its headings, its rows of cells,
    the text part's own figures) drawn with ruled cells, after its caption if `captions`
    gives one, then `rest` as text. The columns `figures` (by default every one after the
    second) are right-aligned."""
    parts = [paragraphs(head)]
    for index, (headings, rows) in enumerate(tables):
        if index < len(captions) and captions[index]:
            parts.append(paragraphs(captions[index]))
        right = set(figures) if figures is not None else set(range(2, len(headings)))
        lines = [f"<table{look_of(_TABLE)}>",
                 "<tr>" + "".join(f"<th{look_of(_cell_look(i in right, heading=True))}>"
                                  f"{_text(h)}</th>" for i, h in enumerate(headings)) + "</tr>"]
        lines += ["<tr>" + "".join(f"<td{look_of(_cell_look(i in right))}>{_text(cell)}</td>"
                                   for i, cell in enumerate(row)) + "</tr>" for row in rows]
        lines.append("</table>")
        parts.append("\n".join(lines) + "\n")
    if rest.strip():
        parts.append(preformatted(rest) + "\n")
    return _page(head, "".join(parts), [])


def _cell_look(figure: bool, heading: bool = False) -> str:
    looks = [_CELL] + ([_FIGURE] if figure else []) + ([_HEADING] if heading else [])
    return " ".join(looks)


def combined(intro: str, answers: Iterable[tuple[str, str, str | None]],
             left_out: str = "") -> str:
    """One document for several answers (subject, text, its own document or None), in order,
    as replies.merge() joins their texts; `left_out` says what did not fit."""
    parts, styles = [paragraphs(intro)], []
    for subject, text, html in answers:
        parts.append(f"<h3{look_of(_HEAD)}>=== {_text(subject)} ===</h3>\n")
        if html is None:
            parts.append(preformatted(text))
        else:
            inside, style = _inside_body(html)
            parts.append(inside)
            styles.append(style)
    if left_out:
        parts.append(preformatted(left_out))
    return _page(intro, "".join(parts) + "\n", styles)


def _page(text: str, inside: str, styles: list[str]) -> str:
    """The document around `inside`, titled by the first line of `text`, with the rules
    of `styles` (each a sheet's css(): the kit's own rules come first in each) that
    `inside` uses, each written once."""
    title = _text(text.split("\n", 1)[0])
    used = {_BODY, *(name for quoted, word in _CLASSES.findall(inside)
                     for name in (quoted or word).split())}
    lines = dict.fromkeys(line for style in [MAIL.css(), *styles]
                          for line in style.splitlines(keepends=True)
                          if line[1:line.find("{")] in used)
    return (f"{START}<title>{title}</title>\n{_STYLE_START}{''.join(lines)}{_STYLE_END}"
            f"</head>\n<body{look_of(_BODY)}>\n{inside}</body></html>\n")


def _text(text: str) -> str:
    """Text as it may stand in an element: <, > and & escaped (quotes need not be)."""
    return escape(text, quote=False)


def _inside_body(html: str) -> tuple[str, str]:
    """The inside of the <body> of a document made by document() above, and its rules.
    (Text in it is escaped, so its first <style> and <body> are the ones _page() wrote.)"""
    begin = html.index(_STYLE_START) + len(_STYLE_START)
    style = html[begin:html.index(_STYLE_END, begin)]
    start = html.index(">", html.index("<body")) + 1
    return html[start:html.rindex("</body>")], style
