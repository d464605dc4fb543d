"""A real headless Chromium, driven by Selenium through Debian's chromedriver, that renders
an HTML mail part and returns its screenshot and where its cells were drawn."""

from __future__ import annotations

import base64
import io
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Where the screenshots are kept for a developer to open (git ignores the folder).
ARTEFACTS = Path(__file__).resolve().parents[2] / "artefacts" / "screenshots"
PHONE_WIDTH = 400  # CSS pixels: the window the pictures must fit, a little over a phone's 360
# Chromium reaches for Google's servers at every start; the machine's closed network
# refuses each connection, so these flags keep it from trying.
FLAGS = (
    "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--hide-scrollbars", "--force-device-scale-factor=1", "--disable-dev-shm-usage",
)


def unavailable() -> str | None:
    """Why no browser can be had here, or None when it can."""
    try:
        import PIL  # noqa: F401
        import selenium  # noqa: F401
    except ImportError as err:
        return f"the test extra is not installed ({err.name} missing): pip install -e '.[test]'"
    for program in ("chromium", "chromedriver"):
        if shutil.which(program) is None:
            return (f"{program} is not installed: apt-get install -y chromium chromium-driver "
                    "(.ci/run does this)")
    return None


@dataclass
class Box:
    """Where an element was drawn, in CSS pixels (= screenshot pixels at scale factor 1)."""

    x: float
    y: float
    width: float
    height: float

    @property
    def centre(self) -> tuple[int, int]:
        return int(self.x + self.width / 2), int(self.y + self.height / 2)


@dataclass
class Shot:
    """A rendered page: the screenshot of the whole page and the boxes of its elements."""

    image: Any  # PIL.Image.Image, RGB
    boxes: dict[str, Box]  # data-cell name -> box, for every element that has one
    page_width: int  # the document's scroll width: wider than the window means it overflows
    png: bytes

    def pixel(self, cell: str) -> tuple[int, int, int]:
        """The colour at the centre of the element with data-cell=`cell`."""
        return self.image.getpixel(self.boxes[cell].centre)


class Browser:
    """One Chromium for a test session; render() loads a page and photographs it."""

    def __init__(self) -> None:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service

        self._profile = tempfile.mkdtemp(prefix="pbm-chromium-")
        options = webdriver.ChromeOptions()
        options.binary_location = shutil.which("chromium") or "chromium"
        for flag in FLAGS:
            options.add_argument(flag)
        options.add_argument(f"--user-data-dir={self._profile}")
        # The console's messages, for pages that must load without an error (tests/browser/
        # test_web_pages.py): CSP refusals and script errors are logged there.
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
        # An explicit driver path: Selenium Manager would otherwise try to download one.
        service = Service(shutil.which("chromedriver") or "chromedriver")
        self._driver = webdriver.Chrome(service=service, options=options)
        self._driver.set_window_size(PHONE_WIDTH, 900)
        self._pages = Path(tempfile.mkdtemp(prefix="pbm-pages-"))

    def render(self, html: str, name: str = "page") -> Shot:
        page = self._pages / f"{name}.html"
        page.write_text(html, encoding="utf-8")
        return self.visit(page.as_uri())

    def visit(self, url: str) -> Shot:
        """Load `url` (a page of the web view, say) and photograph it."""
        from PIL import Image

        self._driver.get(url)
        found = self._driver.execute_script(
            "const out = {};"
            "for (const e of document.querySelectorAll('[data-cell]')) {"
            "  const r = e.getBoundingClientRect();"
            "  out[e.dataset.cell] = [r.x + scrollX, r.y + scrollY, r.width, r.height]; }"
            "return [out, document.documentElement.scrollWidth];")
        boxes = {cell: Box(*box) for cell, box in found[0].items()}
        shot = self._driver.execute_cdp_cmd(
            "Page.captureScreenshot", {"format": "png", "captureBeyondViewport": True})
        png = base64.b64decode(shot["data"])
        image = Image.open(io.BytesIO(png)).convert("RGB")
        return Shot(image, boxes, int(found[1]), png)

    @property
    def driver(self) -> Any:
        """Selenium's driver, for what a test does on the page (keys, the title, the URL)."""
        return self._driver

    def console(self) -> list[dict[str, Any]]:
        """The console's entries since the last call (Chromium hands each over once)."""
        return list(self._driver.get_log("browser"))

    def keep(self, shot: Shot, name: str) -> Path:
        """Save the screenshot under artefacts/screenshots/ for a developer to open."""
        ARTEFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTEFACTS / f"{name}.png"
        path.write_bytes(shot.png)
        return path

    def close(self) -> None:
        self._driver.quit()
        shutil.rmtree(self._profile, ignore_errors=True)
        shutil.rmtree(self._pages, ignore_errors=True)
