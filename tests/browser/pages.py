"""A board picture put in a page of its own, as a mail client would show the HTML part."""

from __future__ import annotations

from PIL import ImageChops

from pbm.games.base import PICTURE_WIDTH
from tests.browser.harness import Browser, Shot
from tests.games.pictures import closed, loophole_named, used_rules


def page(fragment: str, width: int = PICTURE_WIDTH) -> str:
    """A whole HTML page holding `fragment` in a body `width` pixels wide, white, no margin,
    with the rules of the classes it uses in its head, in their sheets' order, as a mail
    has them."""
    style = used_rules(fragment)
    return ('<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>pbm picture</title>'
            f"\n<style>\n{style}</style>\n"
            f'</head>\n<body style="margin:0;width:{width}px;background:#ffffff">\n'
            f"{fragment}\n</body></html>\n")


def shot_of(browser: Browser, game: str, html: str, name: str) -> Shot:
    """`html` (a page) rendered with its cells' boxes. Cells a tool finds by their place
    (Loophole's, a Pipeline pipeline's: games/kit.py) are named first, and the named page
    must look the same as the page as mailed."""
    named = closed(loophole_named(html) if game == "loophole" else html)
    shot = browser.render(named, name)
    mailed = browser.render(html, f"{name}-as-mailed")
    assert ImageChops.difference(shot.image, mailed.image).getbbox() is None, \
        "naming the cells changed the picture"
    return shot
