"""The chat bot's access token, from Secrets Manager or SSM Parameter Store, cached by Powertools."""

from __future__ import annotations

import json

TOKEN_MAX_AGE_SECONDS = 300
SSM_PREFIX = "ssm:"


def chat_token(secret_ref: str, refresh: bool = False, platform: str = "") -> str:
    """The token behind `secret_ref`: a Secrets Manager secret id or ARN, or `ssm:/param/name` for an SSM
    SecureString. The stored value is the raw token or a JSON object with an `access_token` key.
    Errors never include the value."""
    return token_from_value(secret_value(secret_ref, refresh), platform)


def secret_value(secret_ref: str, refresh: bool = False) -> object:
    """The stored value behind `secret_ref` as it is (text or bytes), for a reader that picks from it (a
    Slack token map by workspace)."""
    ref = secret_ref.strip()
    if not ref:
        raise ValueError("no chat token secret is configured")
    from aws_lambda_powertools.utilities import parameters  # imported on first use: keeps cold starts lean

    if ref.startswith(SSM_PREFIX):
        return parameters.get_parameter(
            ref[len(SSM_PREFIX) :], decrypt=True, max_age=TOKEN_MAX_AGE_SECONDS, force_fetch=refresh
        )
    return parameters.get_secret(ref, max_age=TOKEN_MAX_AGE_SECONDS, force_fetch=refresh)


class SecretShape(ValueError):
    """A secret whose value has a shape cronbell cannot read; its message says which, quoting nothing of it."""


def token_from_value(value: object, platform: str = "") -> str:
    """Accept a raw token or `{"access_token": "..."}`, as text or bytes. A secret shared by several
    platforms (deployments from before each platform had its own) holds each one's token under its name:
    `{"matrix": "syt_...", "slack": "xoxb-..."}` (an entry may itself be `{"access_token": "..."}`)."""
    if isinstance(value, bytes | bytearray):
        value = bytes(value).decode("utf-8")
    if not isinstance(value, str):
        raise ValueError("the chat token secret is not text")
    text = value.strip()
    if text.startswith("{"):
        try:
            data = json.loads(text)
        except ValueError:
            raise ValueError("the chat token secret looks like JSON but does not parse") from None
        if isinstance(data, dict) and platform and platform in data:
            data = data[platform]
            if isinstance(data, str) and data.strip():
                return data.strip()
        token = data.get("access_token") if isinstance(data, dict) else None
        if not isinstance(token, str) or not token.strip():
            raise ValueError(f"the chat token secret has no access_token{' for ' + platform if platform else ''}")
        return token.strip()
    if not text:
        raise ValueError("the chat token secret is empty")
    return text
