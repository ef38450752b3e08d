"""The whole stack in one process: moto, the template's functions behind a Lambda endpoint, the
scheduler engine, the clock and a chat backend."""

from __future__ import annotations

import gc
import json
import logging
import os
import secrets
import shutil
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import boto3

from cronbell.settings import agent_map
from sandbox.aws_server import MotoServer, answer_forwarded
from sandbox.built import BUILD_DIR, BuiltFunction, built_functions, built_root, lambda_environment, runtime_python
from sandbox.chat import MatrixChat, SinkChat
from sandbox.clock import RealClock, SandboxClock, VirtualClock, iso, parse_instant
from sandbox.engine import SchedulerEngine, Stopped
from sandbox.lambda_api import Handler, LambdaRuntime
from sandbox.platforms import DEFAULT_SLACK_TEAMS, PlatformStandIns
from sandbox.server import SandboxHTTPServer
from sandbox.stack import (
    ACCOUNT_ID,
    REGION,
    Deployment,
    FunctionSpec,
    clients,
    deploy,
    events_recorder,
    stack_name_from_samconfig,
)
from sandbox.streams import StreamPump

log = logging.getLogger("sandbox")

ROOT = Path(__file__).resolve().parent.parent
FIRE_FUNCTION = "FireFunction"
TOOLS_FUNCTION = "ToolsFunction"
AGENT_FUNCTION = "EchoAgentFunction"
STAND_IN_BACKENDS = "slack,discord,telegram"  # configured beside the sink or Matrix: sandbox/platforms.py


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Options:
    lambda_port: int = 3001
    aws_port: int = 5055
    chat: str = "sink"  # sink | matrix
    slack_teams: tuple[str, ...] = DEFAULT_SLACK_TEAMS  # the Slack workspaces the sandbox has bot tokens for
    clock: str = "virtual"  # virtual | real
    start: datetime | None = None  # virtual clock's first instant (default: now, to the second)
    timezone: str | None = None  # DefaultTimezone
    max_per_room: int | None = None  # MaxPerRoom
    agent_timeout: int | None = None  # AgentTimeoutSeconds
    root: Path = ROOT
    built: bool = False  # run the functions from .aws-sam/build under the runtime's Python (sandbox/built.py)
    concurrency: int = 3  # fires due at the same instant delivered at once, each in a process of its own
    extra_parameters: dict[str, str] = field(default_factory=dict)
    environment: dict[str, str] = field(default_factory=dict)  # added to every function's (sandbox invoke)


class Sandbox:
    def __init__(self, options: Options) -> None:
        self.options = options
        self.ready = False
        self.clock: SandboxClock = self._make_clock()
        self.runtime: LambdaRuntime | None = None
        self.engine: SchedulerEngine | None = None
        self.sink: SinkChat = SinkChat(self.clock, secrets.token_urlsafe(24))  # the webhook's and stand-ins' posts
        self.platforms = PlatformStandIns(self.sink, options.slack_teams)
        self._events: list[dict[str, Any]] = []  # every event the stack published, oldest first
        self._events_lock = threading.Lock()
        self.matrix: MatrixChat | None = None
        self.stack: Deployment | None = None
        self._pumps: list[StreamPump] = []
        self._moto: MotoServer | None = None
        self._http: SandboxHTTPServer | None = None
        self._stop = threading.Event()
        self._workdir: str | None = None
        self.aws_endpoint = ""
        self.lambda_endpoint = ""

    def _make_clock(self) -> SandboxClock:
        if self.options.clock == "real":
            return RealClock()
        start = self.options.start or datetime.now(UTC).replace(microsecond=0)
        return VirtualClock(start)

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> Sandbox:
        o = self.options
        # one request at a time, as AWS applies each atomically; the functions in this process call it directly
        self._moto = MotoServer(o.aws_port, fast_transactions=True, in_process=True).start()
        self.aws_endpoint = self._moto.url
        self._http = SandboxHTTPServer(o.lambda_port, self)  # binds now: its port goes into the environment
        self.lambda_endpoint = f"http://127.0.0.1:{self._http.server_address[1]}"
        threading.Thread(
            target=self._http.serve_forever, kwargs={"poll_interval": 0.1}, name="sandbox-http", daemon=True
        ).start()
        _set_aws_environment(self.aws_endpoint, self.lambda_endpoint)

        parameters = {**self._parameters(), **self._stand_in_parameters()}
        if o.chat == "matrix":
            self._workdir = tempfile.mkdtemp(prefix="cronbell-synapse-")
            self.matrix = MatrixChat(Path(self._workdir), self.clock)
            accounts = self.matrix.start()
            parameters.update(
                {
                    "ChatBackend": f"matrix,{STAND_IN_BACKENDS}",
                    "MatrixHomeserverUrl": self.matrix.url,
                    **self._chat_secret(
                        "matrix", "MatrixTokenSecretArn", json.dumps({"access_token": accounts.bot_token})
                    ),
                }
            )
        else:
            parameters.update(
                {
                    "ChatBackend": f"webhook,{STAND_IN_BACKENDS}",
                    "ChatWebhookUrl": f"{self.lambda_endpoint}/_sandbox/sink",
                    **self._chat_secret("webhook", "WebhookSigningSecretArn", self.sink.signing_secret),
                }
            )
        code_root = built_root(o.root) if o.built else o.root
        self.stack = deploy(
            code_root / "template.yaml", parameters, self.aws_endpoint, stack_name=stack_name_from_samconfig(o.root)
        )
        self._moto.leave_streams_to_the_sandbox()
        bus = self.stack.parameters.get("EventBusName", "")
        if bus:
            self._moto.divert_queue(events_recorder(clients(self.aws_endpoint, REGION), bus), self._record_event)
        specs = self.stack.functions
        api = f"{self.lambda_endpoint}/_sandbox"  # the platforms' API base URLs: their stand-ins
        chat_apis = {
            "SLACK_API_URL": f"{api}/slack/api",
            "DISCORD_API_URL": f"{api}/discord/api/v10",
            "TELEGRAM_API_URL": f"{api}/telegram",
        }
        for spec in specs.values():
            spec.environment.update({**chat_apis, **o.environment})
        if AGENT_FUNCTION in specs:
            for spec in specs.values():
                if "AGENTS" in spec.environment:
                    agents = agent_map(spec.environment["AGENTS"])  # the template's id=arn pairs, or JSON
                    agents.setdefault("echo", AGENT_FUNCTION)
                    spec.environment["AGENTS"] = json.dumps(agents)
        if o.built:
            handlers = built_functions(specs, runtime_python(o.root), self.clock)
            self.runtime = LambdaRuntime(specs, self.clock, self.send_to_queue, handlers)
        else:
            self.runtime = LambdaRuntime(specs, self.clock, self.send_to_queue, scale_out=self._scale_out())
            for spec in specs.values():
                for path in spec.layer_dirs:
                    if str(path) not in sys.path:
                        sys.path.insert(0, str(path))
            _install_clock(self.clock)
        self.runtime.load()
        moto = self._moto
        self._pumps = [
            StreamPump(
                m,
                self._client("dynamodbstreams"),
                self._stream_deliverer(m.function),
                self.clock,
                self.send_to_queue,
                REGION,
                writes=lambda: moto.table_writes,
                reader=moto.stream_records,
            )
            for m in self.stack.mappings
            if m.function in specs
        ]
        self.runtime.settle = self.settle
        self.settle()  # what provisioning wrote
        if o.concurrency > 1 and FIRE_FUNCTION in specs:  # the template's Scheduler target: warm for a storm
            self.runtime.warm(FIRE_FUNCTION, o.concurrency)
        self.engine = SchedulerEngine(
            self._client("scheduler"),
            self.runtime,
            self.clock,
            self.send_to_queue,
            self.clock.now(),
            changes=lambda: moto.scheduler_writes,
            source=lambda: moto.schedules(ACCOUNT_ID, REGION),
            remove=lambda group, name: moto.remove_schedule(ACCOUNT_ID, REGION, group, name),
            lookup=lambda group, name: moto.schedule(ACCOUNT_ID, REGION, group, name),
            concurrency=o.concurrency,
        )
        if not self.clock.virtual:
            threading.Thread(target=self._tick, name="sandbox-ticker", daemon=True).start()
        # what start-up made lives as long as the sandbox, and so do most of moto's items: full collections,
        # which walk every object, need not come every ten of the middle generation's
        gc.freeze()
        gc.set_threshold(*gc.get_threshold()[:2], 100)
        self.ready = True
        return self

    def stop(self) -> None:
        self._stop.set()
        self.ready = False
        if self.engine is not None:
            self.engine.stop()  # a clock move under way ends after the fire in progress
        if self._http is not None:
            self._http.shutdown()
            self._http.server_close()
        if self.runtime is not None:
            self.runtime.close()
        if self.matrix is not None:
            self.matrix.stop()
        if self._moto is not None:
            self._moto.stop()
        if self._workdir:
            shutil.rmtree(self._workdir, ignore_errors=True)

    def __enter__(self) -> Sandbox:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def _parameters(self) -> dict[str, str]:
        o = self.options
        out = dict(o.extra_parameters)
        if o.timezone:
            out["DefaultTimezone"] = o.timezone
        if o.max_per_room is not None:
            out["MaxPerRoom"] = str(o.max_per_room)
        if o.agent_timeout is not None:
            out["AgentTimeoutSeconds"] = str(o.agent_timeout)
        out.setdefault("EventBusName", EVENT_BUS)  # the sandbox always publishes its runs
        return out

    def settle(self) -> None:
        """Apply the table's stream to the functions it feeds (the projector: Scheduler follows the items)."""
        for pump in self._pumps:
            pump.drain()

    def _stream_deliverer(self, function: str) -> Callable[[list[dict[str, Any]]], Any]:
        def deliver(records: list[dict[str, Any]]) -> Any:
            runtime = self.runtime
            assert runtime is not None
            result = runtime.invoke(runtime.find(function), json.dumps({"Records": records}).encode(), settle=False)
            if not result.ok:
                raise RuntimeError(result.payload.decode("utf-8", errors="replace")[:500])
            return json.loads(result.payload)

        return deliver

    def client(self, service: str) -> Any:
        """A boto3 client on the sandbox's moto server."""
        return self._client(service)

    def call_tool(self, tool: str, arguments: dict[str, Any], context: dict[str, Any]) -> dict[str, Any]:
        """One tools-contract call through the ToolsFunction, as a bot makes it."""
        if self.runtime is None:
            raise RuntimeError("the sandbox is starting")
        event = {"tool": tool, "arguments": arguments, "context": context}
        result = self.runtime.invoke(self.runtime.find(TOOLS_FUNCTION), json.dumps(event).encode())
        answer: dict[str, Any] = json.loads(result.payload)
        return answer

    def _client(self, service: str) -> Any:
        return boto3.client(
            service,
            endpoint_url=self.aws_endpoint,
            region_name=REGION,
            aws_access_key_id="test",
            aws_secret_access_key="test",
        )

    def _scale_out(self) -> Callable[[FunctionSpec], Handler]:
        """A function's further execution environments: processes of this Python running its handler from the
        source tree, with its own environment, whose AWS calls this process's moto answers over the process's
        streams (as fast as a call from this process, and no HTTP server thread each)."""
        base = dict(os.environ)  # before the functions' environments are set in this process
        forward = {"SANDBOX_AWS_FORWARD": self.aws_endpoint}

        def start(spec: FunctionSpec) -> Handler:
            env = {**lambda_environment(spec, base), **forward}
            return BuiltFunction(sys.executable, spec, env, self.clock, aws=answer_forwarded, warm=0)

        return start

    def _chat_secret(self, label: str, parameter: str, value: str) -> dict[str, str]:
        """A chat backend's secret (`cronbell/<label>-secret`), created in Secrets Manager as a deployment
        creates it: the template parameter that names it, and its ARN."""
        name = f"cronbell/{label}-secret"
        arn = self._client("secretsmanager").create_secret(Name=name, SecretString=value)["ARN"]
        return {parameter: str(arn)}

    def _stand_in_parameters(self) -> dict[str, str]:
        """The stand-ins' tokens as a deployment keeps them: Slack's by workspace, one bot token each for
        Discord and Telegram."""
        stand_ins = self.platforms
        return {
            **self._chat_secret("slack", "SlackTokenSecretArn", json.dumps(stand_ins.slack_tokens)),
            **self._chat_secret("discord-bot", "DiscordBotTokenSecretArn", stand_ins.discord_token),
            **self._chat_secret("telegram", "TelegramTokenSecretArn", stand_ins.telegram_token),
        }

    def _tick(self) -> None:
        while not self._stop.wait(1.0):
            assert self.engine is not None
            try:
                self.engine.advance(self.clock.now().replace(microsecond=0))
            except Stopped:
                return
            except Exception:  # keep ticking; the next second retries
                log.exception("scheduler tick failed")

    # ------------------------------------------------------------------ what the endpoints call

    def dead_letters(self) -> list[dict[str, Any]]:
        """Every message in the stack's queues (its dead-letter queues), oldest first, read without receiving
        them (from moto's state in this process, so a consumer still gets them)."""
        from moto.sqs.models import sqs_backends

        if self.stack is None:
            return []
        queues = sqs_backends[ACCOUNT_ID][REGION].queues
        out = []
        for logical_id in self.stack.of_type("AWS::SQS::Queue"):
            name = self.stack.physical_name(logical_id).rsplit("/", 1)[-1]
            queue = queues.get(name)
            for message in list(queue._messages) if queue is not None else []:
                out.append({"queue": logical_id, "body": message.body, "sent": float(message.sent_timestamp or 0)})
        return sorted(out, key=lambda m: m["sent"])

    def send_to_queue(self, queue_arn: str, body: str) -> None:
        sqs = self._client("sqs")
        url = sqs.get_queue_url(QueueName=queue_arn.rsplit(":", 1)[-1])["QueueUrl"]
        sqs.send_message(QueueUrl=url, MessageBody=body)

    def now_iso(self) -> str:
        return iso(self.clock.now())

    def move_clock(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        if not self.clock.virtual:
            return 409, {"error": "the clock is real: it cannot be moved"}
        if self.engine is None:
            return 503, {"error": "the sandbox is starting"}
        try:
            if "advance_seconds" in body:
                seconds = float(body["advance_seconds"])
                if seconds < 0:
                    raise ValueError("advance_seconds must not be negative")
                target = self.clock.now() + timedelta(seconds=seconds)
            elif "set" in body:
                target = parse_instant(str(body["set"]))
            else:
                raise ValueError('send {"advance_seconds": N} or {"set": ISO8601}')
        except (TypeError, ValueError) as err:
            return 400, {"error": str(err)}
        try:
            fired = self.engine.advance(target)
        except Stopped:
            return 503, {"error": "the sandbox is stopping"}
        return 200, {"now": self.now_iso(), "fired": [f.to_dict() for f in fired]}

    def messages(self, room_id: str) -> list[dict[str, Any]]:
        """The room's messages on every platform, oldest first."""
        posted = self.sink.messages(room_id)
        if self.matrix is not None:
            posted = sorted(self.matrix.messages(room_id) + posted, key=lambda m: str(m["ts"]))
        return posted

    def _record_event(self, body: str) -> None:
        """One message the bus's rule delivered to the events queue (diverted here by the moto server)."""
        event = json.loads(body)
        with self._events_lock:
            self._events.append(
                {"source": event["source"], "detail_type": event["detail-type"], "detail": event["detail"]}
            )

    def events(self, room_id: str) -> list[dict[str, Any]]:
        """The events published for a room, oldest first, as the bus's rule delivered them."""
        with self._events_lock:
            return [e for e in self._events if e["detail"].get("room_id") == room_id]

    def info(self) -> dict[str, Any]:
        stack = self.stack
        out: dict[str, Any] = {
            "lambda_endpoint": self.lambda_endpoint,
            "aws_endpoint": self.aws_endpoint,
            "region": REGION,
            "account_id": ACCOUNT_ID,
            "functions": sorted(self.runtime.specs) if self.runtime else [],
            "chat": self.options.chat,
            "clock": self.options.clock,
            "now": self.now_iso(),
            "code": str(BUILD_DIR) if self.options.built else "source tree",
        }
        if stack is not None:
            out["table"] = stack.physical_name("ScheduleTable") if "ScheduleTable" in stack.resources else ""
            groups = stack.of_type("AWS::Scheduler::ScheduleGroup")
            out["schedule_group"] = stack.physical_name(groups[0]) if groups else "default"
        if self.matrix is not None and self.matrix.accounts is not None:
            a = self.matrix.accounts
            out["matrix"] = {
                "homeserver": self.matrix.url,
                "room_id": a.room_id,
                "bot_user": a.bot_user,
                "user": a.user,
                "password": a.user_password,
            }
        return out


EVENT_BUS = "cronbell-sandbox"


def _set_aws_environment(aws_endpoint: str, lambda_endpoint: str) -> None:
    """Every boto3 client in this process (the handlers' too) talks to the sandbox with fake credentials."""
    for name in ("AWS_PROFILE", "AWS_SESSION_TOKEN", "AWS_SECURITY_TOKEN", "AWS_ROLE_ARN"):
        os.environ.pop(name, None)
    os.environ.update(
        {
            "AWS_ENDPOINT_URL": aws_endpoint,
            "AWS_ENDPOINT_URL_LAMBDA": lambda_endpoint,
            "AWS_ACCESS_KEY_ID": "test",
            "AWS_SECRET_ACCESS_KEY": "test",
            "AWS_DEFAULT_REGION": REGION,
            "AWS_REGION": REGION,
        }
    )


class _InvocationTime:
    """The sandbox's clock as the functions run in this process read it: each invocation runs in a thread
    of its own, and sees the time it has waited pass (as `runtime_worker`'s clock does for a function
    process), the sandbox's instant otherwise standing still during a clock move."""

    def __init__(self, clock: SandboxClock) -> None:
        self._clock = clock
        self._waited = threading.local()

    def now(self) -> datetime:
        return self._clock.now() + timedelta(seconds=getattr(self._waited, "seconds", 0.0))

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)
        if self._clock.virtual:
            self._waited.seconds = getattr(self._waited, "seconds", 0.0) + seconds


def _install_clock(clock: SandboxClock) -> None:
    from cronbell.adapters import clock as process_clock

    process_clock.install(_InvocationTime(clock))
