"""Web benchmark: board pages per second from a real `pbm web` over HTTP, beside a static
file from the same server, in a store of 1,000 boards and one of 100,000.

The stores are the scale benchmark's (pbm/bench/scale.py: Loophole boards after four
moves, built by bulk inserts). The server is `pbm web` in a process of its own; this
process is the client, with keep-alive connections on one event loop. Each board page
asks for a board not asked for before in that run (no cache of ours helps it, nor the
database's pages of a board just read); then the same pages again, as the players and
spectators of a board read it between two moves (web/page_cache.py keeps them); then once
more with the ETag the first answer gave (what a browser reloading a page sends: 304s)."""

from __future__ import annotations

import asyncio
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from pbm.bench.progress import Progress, quiet
from pbm.bench.scale import build

SERVING = re.compile(r"web view on http://([\d.]+):(\d+)/")
CONNECTIONS = 4


async def _fetch_all(origin: str, paths: list[str], etags: dict[str, str] | None = None
                     ) -> tuple[float, list[float], dict[str, str]]:
    """Fetch `paths` over CONNECTIONS keep-alive connections: the seconds it took, each
    request's latency, and the ETags the answers carried."""
    latencies: list[float] = []
    found: dict[str, str] = {}
    queue: asyncio.Queue[str] = asyncio.Queue()
    for path in paths:
        queue.put_nowait(path)
    connector = aiohttp.TCPConnector(limit=CONNECTIONS)
    async with aiohttp.ClientSession(origin, connector=connector) as client:
        async def worker() -> None:
            while not queue.empty():
                path = queue.get_nowait()
                headers = {"If-None-Match": etags[path]} if etags else {}
                started = time.perf_counter()
                async with client.get(path, headers=headers) as response:
                    await response.read()
                    wanted = 304 if etags else 200
                    if response.status != wanted:
                        raise RuntimeError(f"{path}: {response.status}, not {wanted}")
                    found[path] = response.headers.get("ETag", "")
                latencies.append(time.perf_counter() - started)

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(CONNECTIONS)))
        return time.perf_counter() - started, latencies, found


def _figures(name: str, seconds: float, latencies: list[float]) -> dict[str, float]:
    ordered = sorted(latencies)
    return {f"{name}_per_second": round(len(latencies) / seconds, 1),
            f"{name}_p50_ms": round(statistics.median(ordered) * 1000, 2),
            f"{name}_p95_ms": round(ordered[int(len(ordered) * 0.95) - 1] * 1000, 2)}


def _serve(folder: Path, url: str) -> tuple[subprocess.Popen, str]:
    config = folder / "pbm.toml"
    config.write_text(f'[database]\nurl = "{url}"\n[bots]\ngames = []\n', encoding="utf-8")
    log = folder / "web.log"
    with open(log, "w") as out:
        process = subprocess.Popen([sys.executable, "-m", "pbm", "--config", str(config),
                                    "web", "--listen", "127.0.0.1:0"], stdout=out,
                                   stderr=subprocess.STDOUT, cwd=folder)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and process.poll() is None:
        found = SERVING.search(log.read_text())
        if found:
            return process, f"http://{found.group(1)}:{found.group(2)}"
        time.sleep(0.05)
    process.kill()
    raise RuntimeError("pbm web did not start:\n" + log.read_text())


def measure(url: str, boards: int, pages: int, seed: int, folder: Path) -> dict[str, float]:
    """The figures of one store."""
    process, origin = _serve(folder, url)
    try:
        numbers = random.Random(seed).sample(range(101, 101 + boards), min(pages, boards))
        paths = [f"/loophole/{n}" for n in numbers]
        asyncio.run(_fetch_all(origin, ["/static/style.css", *paths[:20]]))  # warm up
        fresh = paths[20:]
        board_seconds, board_latencies, etags = asyncio.run(_fetch_all(origin, fresh))
        static = ["/static/style.css"] * len(fresh)
        static_seconds, static_latencies, _ = asyncio.run(_fetch_all(origin, static))
        kept_seconds, kept_latencies, _ = asyncio.run(_fetch_all(origin, fresh))
        again_seconds, again_latencies, _ = asyncio.run(_fetch_all(origin, fresh, etags))
    finally:
        process.terminate()
        process.wait(20)
    return {**_figures("board_page", board_seconds, board_latencies),
            **_figures("static", static_seconds, static_latencies),
            **_figures("board_page_again", kept_seconds, kept_latencies),
            **_figures("board_304", again_seconds, again_latencies)}


def run(small: int = 1_000, big: int = 100_000, pages: int = 1_000, users: int = 10_000,
        seed: int = 1, progress: Progress = quiet) -> dict[str, float]:
    figures: dict[str, float] = {"small_boards": small, "big_boards": big,
                                 "pages_asked": min(pages, small) - 20}
    with tempfile.TemporaryDirectory(prefix="pbm-bench-web-") as tmp:
        folder = Path(tmp)
        for name, boards in (("small", small), ("big", big)):
            url = f"sqlite:///{folder / f'{name}.sqlite'}"
            progress(f"web: building the {name} store ({boards:,} boards, {users:,} players)")
            started = time.perf_counter()
            build(url, boards, users).kw["bind"].dispose()
            figures[f"build_{name}_seconds"] = round(time.perf_counter() - started, 1)
            progress(f"web: {name} store built in {figures[f'build_{name}_seconds']} s; "
                     f"asking a real pbm web for {min(pages, small) - 20} board pages")
            for key, value in measure(url, boards, min(pages, small), seed,
                                      folder).items():
                figures[f"{name}_{key}"] = value
    for kind in ("board_page", "board_page_again", "board_304"):
        figures[f"big_{kind}_to_static"] = round(
            figures[f"big_{kind}_per_second"] / figures["big_static_per_second"], 2)
    figures["big_to_small_board_page_cost"] = round(
        figures["small_board_page_per_second"] / figures["big_board_page_per_second"], 2)
    return figures
