"""`python -m sandbox serve | invoke | demo | mcp`."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import signal
import sys
import time
import urllib.parse
from pathlib import Path
from typing import TextIO

from cronbell.adapters.chat.slack_tokens import TEAM_ID
from sandbox.app import ROOT, Options, Sandbox
from sandbox.built import BuildMissing, built_root, runtime_python
from sandbox.clock import parse_instant
from sandbox.invoke import invoke_extras, run_event
from sandbox.platforms import DEFAULT_SLACK_TEAMS

DEFAULT_LAMBDA_URL = "http://127.0.0.1:3001"


def _common(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--start", type=parse_instant, default=None, help="the virtual clock's first instant (ISO 8601)"
    )
    parser.add_argument("--timezone", default=None, help="the deployment's DefaultTimezone (IANA)")
    parser.add_argument("--max-per-room", type=int, default=None, help="MaxPerRoom")
    parser.add_argument("--agent-timeout", type=int, default=None, help="AgentTimeoutSeconds")
    parser.add_argument(
        "--parameter",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a template parameter (repeatable), e.g. --parameter AnalysisOutputRoom='!news:localhost'",
    )
    parser.add_argument(
        "--built",
        action="store_true",
        help="run the functions from .aws-sam/build (make build) under the runtime's Python, not the source tree",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m sandbox", description="cronbell's local AWS sandbox")
    commands = parser.add_subparsers(dest="command", required=True)

    serve = commands.add_parser(
        "serve",
        help="run the whole stack on loopback until interrupted",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    serve.add_argument("--lambda-port", type=int, default=3001, help="the Lambda endpoint's port (Invoke, MCP, UI)")
    serve.add_argument("--aws-port", type=int, default=5055, help="the AWS endpoint's port (moto)")
    serve.add_argument(
        "--chat",
        choices=("sink", "matrix"),
        default="sink",
        help="the default platform: the webhook sink, or a real Matrix homeserver; either way Slack, Discord and "
        "Telegram stand-ins are configured too (context.platform picks one)",
    )
    serve.add_argument(
        "--slack-teams",
        type=_team_ids,
        default=",".join(DEFAULT_SLACK_TEAMS),
        help="the Slack workspaces (team ids, comma-separated) the sandbox has bot tokens for; any other has none",
    )
    serve.add_argument("--clock", choices=("virtual", "real"), default="virtual", help="whose time the scheduler keeps")
    serve.add_argument(
        "--log-file",
        default=None,
        help="send the functions' and the sandbox's logs to this file (appended); the terminal keeps the banner",
    )
    serve.add_argument(
        "--concurrency",
        type=int,
        default=Options.concurrency,
        help="how many fires due at the same instant are delivered at once, each in a function process of its "
        "own (1: one after another, in the sandbox's process)",
    )
    _common(serve)

    invoke = commands.add_parser("invoke", help="run one event through one function, like `sam local invoke`")
    invoke.add_argument("function", help="a function's logical id in template.yaml (e.g. ToolsFunction)")
    invoke.add_argument("-e", "--event", default=None, help="event JSON file ('-' reads stdin); default {}")
    _common(invoke)

    commands.add_parser("demo", help="a scripted conversation through the sandbox, end to end")

    mcp = commands.add_parser(
        "mcp", help="MCP over stdio for clients that start a command; the tools run in a sandbox already serving"
    )
    mcp.add_argument("--room", required=True, help="the context's room_id (set here, never by the model)")
    mcp.add_argument("--user", required=True, help="the context's user_id")
    mcp.add_argument("--agent", default=None, help="the context's agent_id (the default target agent)")
    mcp.add_argument("--timezone", default=None, help="the context's timezone (IANA)")
    mcp.add_argument("--locale", default=None, help="the context's locale (en, es)")
    mcp.add_argument("--thread", default=None, help="the context's thread_id (the schedules' posts go into it)")
    mcp.add_argument("--platform", default=None, help="the context's platform (one of the deployment's chat backends)")
    mcp.add_argument("--team", default=None, help="the context's team_id (the Slack workspace the room is in)")
    mcp.add_argument("--lambda-url", default=DEFAULT_LAMBDA_URL, help="the sandbox's Lambda endpoint")
    mcp.add_argument(
        "--tools",
        choices=("full", "essential"),
        default="full",
        help="the tool set tools/list shows (docs/tools/<set>/); any tool can still be called",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if getattr(args, "built", False):
        try:
            built_root(ROOT)
            runtime_python(ROOT)
        except BuildMissing as err:
            print(err, file=sys.stderr)
            return 2
    logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="sandbox %(name)s: %(message)s")
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    logging.getLogger("botocore").setLevel(logging.WARNING)
    if args.command == "serve":
        return serve(args)
    if args.command == "invoke":
        logging.getLogger("sandbox").setLevel(logging.WARNING)  # only the function's own logs and answer
        return invoke(args)
    if args.command == "mcp":
        return mcp_stdio(args)
    from sandbox.demo import run_demo

    return run_demo()


def _team_ids(text: str) -> tuple[str, ...]:
    """`--slack-teams`: Slack team ids (T… or E…, upper case), comma-separated."""
    teams = tuple(t.strip() for t in text.split(",") if t.strip())
    wrong = [t for t in teams if not TEAM_ID.match(t)]
    if wrong:
        raise argparse.ArgumentTypeError(f"{wrong[0]!r} is not a Slack team id (T or E, then capitals and digits)")
    return teams or DEFAULT_SLACK_TEAMS


def _options(args: argparse.Namespace, **overrides: object) -> Options:
    options = Options(
        start=args.start,
        timezone=args.timezone,
        max_per_room=args.max_per_room,
        agent_timeout=args.agent_timeout,
        built=args.built,
        extra_parameters=dict(item.partition("=")[::2] for item in args.parameter),
    )
    for key, value in overrides.items():
        setattr(options, key, value)
    return options


def serve(args: argparse.Namespace) -> int:
    """Run until SIGTERM or Ctrl-C. The signal handlers only note the request: raising from a handler
    can land inside a lock's bookkeeping and leave the process hanging."""
    options = _options(
        args,
        lambda_port=args.lambda_port,
        aws_port=args.aws_port,
        chat=args.chat,
        slack_teams=args.slack_teams,
        clock=args.clock,
        concurrency=max(1, args.concurrency),
    )
    requested: list[int] = []
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda received, frame: requested.append(received))
    terminal = sys.stdout
    if args.log_file:
        terminal = _logs_to(Path(args.log_file))
    sandbox = Sandbox(options)
    try:
        try:
            sandbox.start()
        except (Exception, SystemExit):  # the log has why (a server may print it and exit): the terminal too
            if args.log_file:
                print(f"cronbell sandbox did not start: {_last_line(Path(args.log_file))}", file=terminal, flush=True)
            raise
        print(banner(sandbox, args.log_file or ""), file=terminal, flush=True)
        while not requested:
            time.sleep(0.2)
    finally:
        sandbox.stop()
    return 0


def _last_line(path: Path) -> str:
    sys.stdout.flush()
    sys.stderr.flush()
    lines = [line.strip() for line in path.read_text(encoding="utf-8", errors="replace").splitlines()[-20:]]
    return next((line for line in reversed(lines) if line), f"see {path}")


def _logs_to(path: Path) -> TextIO:
    """Point this process's stdout and stderr (the functions' logs, the sandbox's, its child processes') at
    `path`; returns a stream on the terminal they had."""
    terminal = os.fdopen(os.dup(sys.stdout.fileno()), "w", buffering=1, encoding="utf-8")
    print(f"cronbell sandbox: logs go to {path}", file=terminal, flush=True)
    sys.stdout.flush()
    sys.stderr.flush()
    log = path.open("a", encoding="utf-8")
    os.dup2(log.fileno(), sys.stdout.fileno())
    os.dup2(log.fileno(), sys.stderr.fileno())
    log.close()
    return terminal


def banner(sandbox: Sandbox, log_file: str = "") -> str:
    info = sandbox.info()
    timezone, locale = sandbox.options.timezone or "Europe/Madrid", "en"
    matrix = info.get("matrix")
    room = matrix["room_id"] if matrix else "ROOM"  # in matrix mode the bot can post to its room only
    lines = [
        "cronbell sandbox is up.",
        f"  Lambda endpoint : {info['lambda_endpoint']}   (functions: {', '.join(info['functions'])})",
        f"  AWS (moto)      : {info['aws_endpoint']}   region {info['region']}, account {info['account_id']}",
        f"  clock           : {info['clock']}, now {info['now']}",
        f"  console         : {info['lambda_endpoint']}/_sandbox/ui",
    ]
    if sandbox.clock.virtual:
        lines.append(
            f"                    move it: curl -X POST {info['lambda_endpoint']}/_sandbox/clock "
            "-d '{\"advance_seconds\": 3600}'"
        )
    if log_file:
        lines.append(f"  logs            : {log_file}   (tail -f it: the functions' JSON lines)")
    if sandbox.options.built:
        lines.append(f"  functions run   : as built by `sam build` ({info['code']}), each in a Python 3.12 process")
    lines += [
        f"  messages        : curl '{info['lambda_endpoint']}/_sandbox/messages?room_id={room}'",
        "",
        "Point a bot at it with boto3:",
        "  import boto3, json",
        f'  lam = boto3.client("lambda", endpoint_url="{info["lambda_endpoint"]}",',
        f'                     region_name="{info["region"]}",',
        '                     aws_access_key_id="test", aws_secret_access_key="test")',
        '  event = {"tool": "create_reminder",',
        '           "arguments": {"message": "stand-up", "time": "in 10 minutes"},',
        f'           "context": {{"room_id": "{room}", "user_id": "@ana:localhost", "agent_id": "echo",',
        f'                       "timezone": "{timezone}", "locale": "{locale}"}}}}',
        '  print(json.load(lam.invoke(FunctionName="ToolsFunction", Payload=json.dumps(event))["Payload"]))',
    ]
    lines += [
        "",
        *mcp_help(info["lambda_endpoint"], room, matrix["user"] if matrix else "@ana:localhost", timezone),
    ]
    if matrix:
        lines += [
            "",
            "Matrix (any client, e.g. Element, with a custom homeserver):",
            f"  homeserver : {matrix['homeserver']}",
            f"  login      : {matrix['user']}   password {matrix['password']}",
            f"  bot's room : {matrix['room_id']}   the bot {matrix['bot_user']} can post only to this room: "
            "use it as context.room_id",
        ]
    else:
        lines += ["", "Chat: the webhook sink records messages for any room id (GET /_sandbox/messages)."]
    teams = ", ".join(sandbox.options.slack_teams)
    lines += [
        f"Slack (workspaces {teams}; context.team_id), Discord (a bot) and Telegram stand-ins on the Lambda endpoint:",
        '  context.platform "slack", "discord" or "telegram" posts there; messages name platform and workspace.',
    ]
    lines.append("Ctrl-C stops everything.")
    return "\n".join(lines)


def mcp_help(
    lambda_endpoint: str, room: str = "ROOM", user: str = "@ana:localhost", timezone: str = "Europe/Madrid"
) -> list[str]:
    """How an MCP client connects: the URL for HTTP clients, a command for clients that start one."""
    context = {"room_id": room, "user_id": user, "agent_id": "echo", "timezone": timezone, "locale": "en"}
    query = urllib.parse.urlencode(context, safe="!@:/")
    args = ["-m", "sandbox", "mcp", "--room", room, "--user", user, "--agent", "echo", "--timezone", timezone]
    args += ["--locale", "en", "--lambda-url", lambda_endpoint]
    return [
        "MCP, for any agent (the URL's query string is the context: room_id, user_id, agent_id, timezone, locale,",
        "  thread_id, platform, team_id; tools=essential lists the essential set, --tools essential over stdio):",
        f"  streamable HTTP : {lambda_endpoint}/mcp?{query}",
        "  or a command (stdio), for clients that start one:",
        '    {"mcpServers": {"cronbell": {',
        f'      "command": {json.dumps(sys.executable)},',
        f'      "args": {json.dumps(args)},',
        f'      "env": {json.dumps({"PYTHONPATH": str(ROOT)})}}}}}}}',
    ]


def mcp_stdio(args: argparse.Namespace) -> int:
    from sandbox.mcp import MissingContext, context_from, serve_stdio

    logging.getLogger("mcp").setLevel(logging.WARNING)
    values = {"room_id": args.room, "user_id": args.user, "agent_id": args.agent, "timezone": args.timezone}
    values.update(locale=args.locale, thread_id=args.thread, platform=args.platform, team_id=args.team)
    try:
        context = context_from(values)
    except MissingContext as err:
        print(f"python -m sandbox mcp: {err}", file=sys.stderr)
        return 2
    serve_stdio(args.lambda_url, context, args.tools)
    return 0


def invoke(args: argparse.Namespace) -> int:
    if args.event in (None, ""):
        payload = b"{}"
    elif args.event == "-":
        payload = sys.stdin.buffer.read()
    else:
        payload = Path(args.event).read_bytes()
    out = sys.stdout
    extras = invoke_extras(args.event)
    if extras.path:
        print(f"with {extras.path}: {extras.summary()}", file=sys.stderr)
    sandbox = Sandbox(_options(args, lambda_port=0, aws_port=0, environment=extras.environment))
    # the handlers' logs go to stderr, as `sam local invoke` keeps them apart from the answer
    with contextlib.redirect_stdout(sys.stderr):
        try:
            sandbox.start()
            assert sandbox.runtime is not None
            try:
                spec = sandbox.runtime.find(args.function)
            except LookupError:
                print(f"no function {args.function!r} in template.yaml", file=sys.stderr)
                return 2
            try:
                event = json.loads(payload) if payload.strip() else {}
            except ValueError as err:
                print(f"the event is not JSON: {err}", file=sys.stderr)
                return 2
            result = run_event(sandbox, spec.logical_id, event, extras)
        finally:
            sandbox.stop()
    print(json.dumps(json.loads(result.payload), indent=2, ensure_ascii=False), file=out)
    return 1 if result.function_error else 0
