"""Fire tests against a real Synapse homeserver: a fresh room with its own bot and user, and the
fire function wired to it with the bot's token in Secrets Manager."""

from __future__ import annotations

import uuid
from typing import Any

import boto3

from sandbox.synapse import SynapseServer
from tests.support.aws import REGION, Stack
from tests.support.handlers import configure_env


def matrix_env(stack: Stack, server: SynapseServer, bot_token: str) -> None:
    secrets = boto3.client("secretsmanager", region_name=REGION, endpoint_url=stack.endpoint)
    arn = secrets.create_secret(Name=f"cronbell/bot-{uuid.uuid4().hex[:6]}", SecretString=bot_token)["ARN"]
    configure_env(stack, CHAT_BACKEND="matrix", MATRIX_HOMESERVER_URL=server.url, CHAT_TOKEN_SECRET=arn)


def fresh_room(server: SynapseServer) -> Any:
    suffix = uuid.uuid4().hex[:6]
    return server.provision_room(bot=f"bot-{suffix}", user=f"ana-{suffix}")
