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

from sandbox import motofast


class _QuietHandler(MotoRequestHandler):
    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        pass


class _Atomic:
    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self._app = app
        self.lock = threading.Lock()
        self.calls: Counter[str] = Counter()
        self.scheduler_writes = 0  # requests that may have changed Scheduler's state

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> list[bytes]:
        target = environ.get("HTTP_X_AMZ_TARGET", "")
        action = target.rsplit(".", 1)[-1] if target else f"{environ.get('REQUEST_METHOD')} {environ.get('PATH_INFO')}"
        with self.lock:
            if not environ.get("PATH_INFO", "").startswith("/moto-api"):
                self.calls[action] += 1
            if environ.get("REQUEST_METHOD") != "GET" and "/scheduler/" in environ.get("HTTP_AUTHORIZATION", ""):
                self.scheduler_writes += 1
            return list(self._app(environ, start_response))


class MotoServer:
    """`start()` serves moto on 127.0.0.1:port in a background thread; `url` is its endpoint."""

    def __init__(self, port: int = 0, *, fast_transactions: bool = False) -> None:
        if fast_transactions:  # for the whole process: see sandbox/motofast.py
            motofast.install()
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

    @property
    def scheduler_writes(self) -> int:
        """How many requests so far could have created, changed or deleted a schedule (the scheduler engine
        re-reads the schedules only when this moves)."""
        return self._app.scheduler_writes

    def schedules(self, account_id: str, region: str) -> list[dict[str, Any]]:
        """Every schedule of every group as GetSchedule describes it, read from moto's state in one step
        (between two requests): the scheduler engine reads a thousand schedules this way in milliseconds,
        where a GetSchedule each costs seconds."""
        from moto.scheduler.models import scheduler_backends

        with self._app.lock:
            backend = scheduler_backends[account_id][region]
            return [s.to_dict() for group in backend.schedule_groups.values() for s in group.schedules.values()]

    def start(self) -> MotoServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
