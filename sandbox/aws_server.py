"""moto in server mode, with each request applied atomically.

moto's backends are not thread-safe (concurrent DynamoDB transactions can corrupt its state),
while AWS applies every API request atomically. Serialising requests restores that: concurrent
clients still race exactly as they would against AWS, one whole request at a time.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from moto.moto_server.threaded_moto_server import MotoRequestHandler
from moto.server import DomainDispatcherApplication, create_backend_app
from werkzeug.serving import BaseWSGIServer, make_server


class _QuietHandler(MotoRequestHandler):
    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass


class _Atomic:
    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self._app = app
        self._lock = threading.Lock()
        self.calls: Counter[str] = Counter()

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        target = environ.get("HTTP_X_AMZ_TARGET", "")
        action = target.rsplit(".", 1)[-1] if target else f"{environ.get('REQUEST_METHOD')} {environ.get('PATH_INFO')}"
        with self._lock:
            if not environ.get("PATH_INFO", "").startswith("/moto-api"):
                self.calls[action] += 1
            return list(self._app(environ, start_response))


class MotoServer:
    """`start()` serves moto on 127.0.0.1:port in a background thread; `url` is its endpoint."""

    def __init__(self, port: int = 0) -> None:
        self._app = _Atomic(DomainDispatcherApplication(create_backend_app))
        self._server: BaseWSGIServer = make_server(
            "127.0.0.1", port, self._app, threaded=True, request_handler=_QuietHandler
        )
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True, name="moto")

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def calls(self) -> Counter[str]:
        """AWS API calls served so far, by action (DynamoDB targets, or method and path)."""
        return self._app.calls

    def start(self) -> MotoServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
