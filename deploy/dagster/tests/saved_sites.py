"""Bon Appétit's API and UCLA's menu feed on 127.0.0.1, answering with the real responses saved in
../shared/data (read in place, never copied), with the faults the three-campus test stages."""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable

# St. Olaf's Stav Hall (café 261) on 2016-11-22, the one Bon Appétit day saved.
STOLAF_DAY = "bonappetit-2016/261-stav-2016-11-22.json"
STOLAF_MENUS = "/api/2/menus?cafe=261&date=2016-11-22"
# UCLA's feed as saved on the night of 2025-04-10: six dates, and the food documents beside.
UCLA_NIGHT = "2025-04-10"


class SavedSite:
    """One host: `answer(path)` gives (status, body); a thread serves it until `stop()`."""

    def __init__(self, answer: Callable[[str], tuple[int, bytes]]):
        site = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body leave in two writes: with Nagle's wait against the client's delayed
            # acknowledgement, each answer would stall 40 ms (a UCLA night asks a thousand).
            disable_nagle_algorithm = True

            def do_GET(self):
                site.requests.append(self.path)
                status, body = answer(self.path)
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:
                    pass  # the client is gone (timed out, or killed with its worker)

            def log_message(self, *arguments):
                pass

        self.requests: list[str] = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def stolaf_site(shared: Path, stall_first: float) -> SavedSite:
    """The menus answer of the saved day; the first request waits `stall_first` seconds first
    (past the pipeline's timeout: a site that does not answer in time, exit 4)."""
    day = (shared / STOLAF_DAY).read_bytes()
    stalled = threading.Event()

    def answer(path: str) -> tuple[int, bytes]:
        if path != STOLAF_MENUS:
            return 404, b"{}"
        if not stalled.is_set():
            stalled.set()
            time.sleep(stall_first)
        return 200, day

    return SavedSite(answer)


def ucla_site(shared: Path, on_first_recipe: Callable[[], None]) -> SavedSite:
    """The feed's paths for the saved night; `on_first_recipe` runs (once) when the first recipe
    document is asked, the menus read: a moment in the middle of the run."""
    folder = shared / "ucla-jamix-2025"
    ingredients = json.loads((folder / "ingredients-2025-11-07.json").read_text(encoding="utf-8"))
    asked = threading.Lock()
    first = [True]

    def answer(path: str) -> tuple[int, bytes]:
        parts = path.strip("/").split("/")
        if len(parts) != 2 or not parts[1].endswith(".json"):
            return 404, b"{}"
        name = parts[1][: -len(".json")]
        if parts[0] == "menus":
            file = folder / "nights" / UCLA_NIGHT / "menus" / f"{name}.json"
            return (200, file.read_bytes()) if file.is_file() else (404, b"{}")
        if parts[0] == "recipes" and name.isdigit():
            with asked:
                if first[0]:
                    first[0] = False
                    on_first_recipe()
            file = folder / "recipes" / f"{name}.json"
            return (200, file.read_bytes()) if file.is_file() else (404, b"{}")
        if parts[0] == "ingredients" and name in ingredients:
            return 200, json.dumps(ingredients[name]).encode()
        return 404, b"{}"

    return SavedSite(answer)
