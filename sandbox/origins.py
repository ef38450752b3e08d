"""Who may call the sandbox's ports: only pages and clients that name this server itself. A page reached by
DNS rebinding names another host; a page elsewhere sends its own Origin."""

from __future__ import annotations


class Foreign(Exception):
    """A request from outside the sandbox's own origin: its status, error code and message."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def check_origin(port: int, host: str | None, origin: str | None) -> None:
    """Raise `Foreign` unless the Host names this server (127.0.0.1 or localhost on `port`) and an
    Origin, when a browser sends one, is this server's own."""
    allowed_hosts = {f"127.0.0.1:{port}", f"localhost:{port}"}
    if (host or "").strip().lower() not in allowed_hosts:
        raise Foreign(421, "InvalidHost", f"Host {host!r} is not this sandbox: use 127.0.0.1:{port}")
    if origin is not None and origin.strip().lower() not in {f"http://{name}" for name in allowed_hosts}:
        raise Foreign(403, "InvalidOrigin", f"Origin {origin!r} may not call the sandbox (only its own pages may)")
