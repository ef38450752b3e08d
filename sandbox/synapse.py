"""A real Matrix homeserver (Synapse) on loopback, for the local sandbox and the tests.

`SynapseServer` writes a minimal SQLite config into a work directory, starts Synapse
with the current interpreter, and offers just enough of the client and admin APIs to
provision users and rooms and to read messages back. Development only: never deployed.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import secrets
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Self

SERVER_NAME = "localhost"

_RELAXED = {"per_second": 1000, "burst_count": 1000}


class SynapseError(RuntimeError):
    """Synapse failed to start, or answered a provisioning call with an error."""


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _signing_key() -> str:
    """An ed25519 signing key line as Synapse reads it: any 32 random bytes are a valid seed."""
    seed = base64.b64encode(secrets.token_bytes(32)).decode("ascii").rstrip("=")
    return f"ed25519 a_{secrets.token_hex(2)} {seed}"


@dataclass(frozen=True)
class MatrixRoom:
    """A room where a bot user and a human user are both members, with both access tokens."""

    room_id: str
    bot_id: str
    bot_token: str
    user_id: str
    user_token: str


class SynapseServer:
    """Start and stop a Synapse homeserver on 127.0.0.1; everything it writes stays in `workdir`.

    `rate_limited=True` keeps a tight message rate limit so a burst of sends meets 429s;
    otherwise every rate limit is relaxed so tests never wait.
    """

    def __init__(
        self,
        workdir: str | Path,
        port: int | None = None,
        rate_limited: bool = False,
        server_name: str = SERVER_NAME,
    ) -> None:
        self.workdir = Path(workdir)
        self.port = port
        self.rate_limited = rate_limited
        self.server_name = server_name
        self.startup_seconds: float | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._shared_secret = secrets.token_hex(16)

    # ---- lifecycle -------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        if self.port is None:
            raise SynapseError("the server has not been started")
        return f"http://127.0.0.1:{self.port}"

    @property
    def config_path(self) -> Path:
        return self.workdir / "homeserver.yaml"

    @property
    def log_path(self) -> Path:
        return self.workdir / "synapse.log"

    @property
    def running(self) -> bool:
        return self._process is not None and self._process.poll() is None

    def config(self) -> dict[str, Any]:
        """The homeserver configuration (written as JSON, which YAML readers accept)."""
        assert self.port is not None
        message_limit = {"per_second": 0.5, "burst_count": 3} if self.rate_limited else _RELAXED
        return {
            "server_name": self.server_name,
            "public_baseurl": f"http://127.0.0.1:{self.port}/",
            "pid_file": str(self.workdir / "homeserver.pid"),
            "listeners": [
                {
                    "port": self.port,
                    "bind_addresses": ["127.0.0.1"],
                    "type": "http",
                    "tls": False,
                    "x_forwarded": False,
                    "resources": [{"names": ["client"], "compress": False}],
                }
            ],
            "database": {"name": "sqlite3", "args": {"database": str(self.workdir / "homeserver.db")}},
            "media_store_path": str(self.workdir / "media_store"),
            "signing_key": _signing_key(),
            "registration_shared_secret": self._shared_secret,
            "macaroon_secret_key": secrets.token_hex(16),
            "form_secret": secrets.token_hex(16),
            "report_stats": False,
            "enable_registration": False,
            "trusted_key_servers": [],
            "suppress_key_server_warning": True,
            "presence": {"enabled": False},
            "url_preview_enabled": False,
            "enable_metrics": False,
            "bcrypt_rounds": 4,  # registration speed; these passwords guard nothing
            "rc_message": message_limit,
            "rc_registration": _RELAXED,
            "rc_login": {"address": _RELAXED, "account": _RELAXED, "failed_attempts": _RELAXED},
            "rc_room_creation": _RELAXED,
            "rc_joins": {"local": _RELAXED, "remote": _RELAXED},
            "rc_joins_per_room": _RELAXED,
            "rc_invites": {"per_room": _RELAXED, "per_user": _RELAXED, "per_issuer": _RELAXED},
        }

    def start(self, timeout: float = 60.0) -> Self:
        """Write the config, start Synapse and wait until the client API answers."""
        if self.running:
            return self
        began = time.monotonic()
        self.workdir.mkdir(parents=True, exist_ok=True)
        if self.port is None:
            self.port = free_port()
        self.config_path.write_text(json.dumps(self.config(), indent=2), encoding="utf-8")
        log = self.log_path.open("ab")
        try:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "synapse.app.homeserver", "-c", str(self.config_path)],
                cwd=self.workdir,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        finally:
            log.close()
        deadline = began + timeout
        while True:
            if self._process.poll() is not None:
                raise SynapseError(f"synapse exited with {self._process.returncode}:\n{self._log_tail()}")
            if self._answers():
                break
            if time.monotonic() > deadline:
                self.stop()
                raise SynapseError(f"synapse did not answer within {timeout:.0f} s:\n{self._log_tail()}")
            time.sleep(0.1)
        self.startup_seconds = time.monotonic() - began
        return self

    def stop(self, timeout: float = 10.0) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def _answers(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/_matrix/client/versions", timeout=1) as answer:
                return bool(answer.status == 200)
        except (OSError, ValueError):
            return False

    def _log_tail(self, lines: int = 30) -> str:
        try:
            return "\n".join(self.log_path.read_text(encoding="utf-8", errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    # ---- provisioning ----------------------------------------------------------------------------

    def request(
        self,
        method: str,
        path: str,
        body: dict[str, Any] | None = None,
        token: str | None = None,
        query: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """One JSON call to the homeserver; a non-2xx answer raises SynapseError with its errcode."""
        url = self.url + path + ("?" + urllib.parse.urlencode(query) if query else "")
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        req = urllib.request.Request(url, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=30) as answer:
                result: dict[str, Any] = json.loads(answer.read() or b"{}")
                return result
        except urllib.error.HTTPError as err:
            detail = err.read().decode("utf-8", errors="replace")[:300]
            raise SynapseError(f"{method} {path}: {err.code} {detail}") from None

    def register(self, localpart: str, admin: bool = False, password: str | None = None) -> tuple[str, str]:
        """Create a user with the shared-secret admin API; returns (user_id, access_token).
        Give a `password` to log in with a Matrix client later; otherwise a random one is set."""
        nonce = self.request("GET", "/_synapse/admin/v1/register")["nonce"]
        password = password or secrets.token_urlsafe(12)
        mac = hmac.new(self._shared_secret.encode(), digestmod=hashlib.sha1)
        for part in (nonce, localpart, password):
            mac.update(part.encode("utf-8"))
            mac.update(b"\x00")
        mac.update(b"admin" if admin else b"notadmin")
        answer = self.request(
            "POST",
            "/_synapse/admin/v1/register",
            {
                "nonce": nonce,
                "username": localpart,
                "password": password,
                "admin": admin,
                "mac": mac.hexdigest(),
            },
        )
        return answer["user_id"], answer["access_token"]

    def create_room(self, token: str, invite: list[str] | tuple[str, ...] = (), name: str | None = None) -> str:
        body: dict[str, Any] = {"preset": "private_chat", "invite": list(invite)}
        if name:
            body["name"] = name
        room_id: str = self.request("POST", "/_matrix/client/v3/createRoom", body, token=token)["room_id"]
        return room_id

    def join(self, token: str, room_id: str) -> None:
        self.request("POST", f"/_matrix/client/v3/join/{urllib.parse.quote(room_id, safe='')}", {}, token=token)

    def provision_room(self, bot: str = "cronbell", user: str = "ana", name: str | None = None) -> MatrixRoom:
        """Register a bot and a user (fresh localparts each call), and put both in a new room."""
        bot_id, bot_token = self.register(bot)
        user_id, user_token = self.register(user)
        room_id = self.create_room(user_token, invite=[bot_id], name=name)
        self.join(bot_token, room_id)
        return MatrixRoom(room_id, bot_id, bot_token, user_id, user_token)

    def messages(self, token: str, room_id: str, limit: int = 1000) -> list[dict[str, Any]]:
        """The room's `m.room.message` events as the token's user sees them, oldest first."""
        answer = self.request(
            "GET",
            f"/_matrix/client/v3/rooms/{urllib.parse.quote(room_id, safe='')}/messages",
            token=token,
            query={"dir": "b", "limit": str(limit)},
        )
        out = []
        for event in reversed(answer.get("chunk", [])):
            if event.get("type") != "m.room.message":
                continue
            content = event.get("content", {})
            relation = content.get("m.relates_to") or {}
            out.append(
                {
                    "event_id": event["event_id"],
                    "sender": event["sender"],
                    "body": content.get("body", ""),
                    "formatted_body": content.get("formatted_body"),
                    "mentions": list(content.get("m.mentions", {}).get("user_ids", [])),
                    "origin_server_ts": event["origin_server_ts"],
                    "thread_id": relation.get("event_id") if relation.get("rel_type") == "m.thread" else None,
                    "actions": list(content.get("org.cronbell.actions") or []),
                }
            )
        return out


if __name__ == "__main__":  # a quick manual check: start, provision, post, read back, stop
    import tempfile

    with tempfile.TemporaryDirectory() as tmp, SynapseServer(tmp) as server:
        room = server.provision_room()
        print(f"started in {server.startup_seconds:.2f} s at {server.url}")
        print(f"{room.bot_id} and {room.user_id} in {room.room_id}")
