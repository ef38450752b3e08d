"""The sandbox's HTTP server on a free port, in this process, over stand-ins of the rest of the sandbox."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import SimpleNamespace
from typing import Any

from sandbox.server import SandboxHTTPServer


class RecordingRuntime:
    """ToolsFunction as the Invoke API runs it: records each payload and answers `answer`."""

    def __init__(self, answer: bytes = b'{"ok": true}') -> None:
        self.answer = answer
        self.invoked: list[bytes] = []

    def find(self, name: str) -> Any:
        return name

    def invoke(self, spec: Any, payload: bytes, client_context: Any) -> Any:
        self.invoked.append(payload)
        return SimpleNamespace(payload=self.answer, request_id="r-1", function_error="")


@contextmanager
def serving(sandbox: SimpleNamespace) -> Iterator[SandboxHTTPServer]:
    """`sandbox`'s endpoints served until the block ends; its `lambda_endpoint` is the server's URL (what
    `/mcp` invokes)."""
    httpd = SandboxHTTPServer(0, sandbox)  # type: ignore[arg-type]
    sandbox.lambda_endpoint = f"http://127.0.0.1:{httpd.server_address[1]}"
    threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    try:
        yield httpd
    finally:
        httpd.shutdown()
        httpd.server_close()
