"""The browser harness itself: a page it renders is photographed where it was drawn."""

from __future__ import annotations

from tests.browser.harness import Browser


def test_a_drawn_cell_is_photographed_in_its_colour(browser: Browser) -> None:
    html = ('<!DOCTYPE html><html><body style="margin:0;background:#ffffff">'
            '<div style="height:1500px"></div>'  # below the window: the shot takes it all
            '<span data-cell="K10" style="display:inline-block;width:20px;height:20px;'
            'background:#123456"></span></body></html>')
    shot = browser.render(html, "harness")
    box = shot.boxes["K10"]
    assert (box.y, box.width, box.height) == (1500, 20, 20)
    assert shot.pixel("K10") == (0x12, 0x34, 0x56)
    assert shot.image.getpixel((5, 5)) == (255, 255, 255)
    assert shot.page_width <= 400
