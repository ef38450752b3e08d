"""Where a room lives: which chat platform, and the store's key for a room on it.

A room id is only unique on its own platform, so the store keys a room by platform and id. Rooms of
the deployment's default platform keep their bare id as key (items written before several platforms
existed stay where they are); a room of another platform is keyed `<platform>` + US + `<room id>`.
The unit separator never occurs in a context's room id (the envelope takes printable text only), so
no bare id can collide with the key of another platform's room.

On a platform whose bot serves several workspaces with a token each (Slack: `context.team_id`), a
room's key also names its workspace: `<platform>` + US + `<room id>` + US + `<workspace>`. Every post
to that room, and every room its schedules post to on the same platform, goes with that workspace's
token; a schedule keeps its workspace because its room key does.
"""

from __future__ import annotations

from dataclasses import replace

from cronbell.core.domain.actions import Action
from cronbell.core.domain.messages import ChatMessage
from cronbell.core.domain.platforms import PLATFORMS  # the chat backends a deployment may configure

SEPARATOR = "\x1f"


def room_key(platform: str, room_id: str, default_platform: str, workspace: str = "") -> str:
    """The store's key of `room_id` on `platform` ("" is the default platform), in `workspace` when the
    platform has workspaces."""
    if workspace:
        return SEPARATOR.join((platform or default_platform, room_id, workspace))
    if not platform or platform == default_platform:
        return room_id
    return f"{platform}{SEPARATOR}{room_id}"


def split_room_key(key: str) -> tuple[str, str]:
    """`(platform, room id)` of a store key; the platform is "" for the default one."""
    platform, sep, rest = key.partition(SEPARATOR)
    return (platform, rest.partition(SEPARATOR)[0]) if sep else ("", key)


def workspace(key: str) -> str:
    """The workspace a store key's room is in ("" when its platform has none, or none was named)."""
    parts = key.split(SEPARATOR)
    return parts[2] if len(parts) > 2 else ""


def without_workspace(key: str, default_platform: str) -> str:
    platform, room_id = split_room_key(key)
    return room_key(platform, room_id, default_platform)


def named_room(name: str, own_room: str, default_platform: str) -> str | None:
    """The store key of a room a model named (an agent call's `channel`, an escalation's room): a room on
    the platform of `own_room` (its store key), in its workspace. `slack:C0999`, as AllowedOutputRooms
    spells it, is C0999 when the caller is on Slack; None when the prefix names another platform, whose
    rooms a caller never reaches."""
    own_platform = split_room_key(own_room)[0] or default_platform
    prefix, sep, rest = name.partition(":")
    if sep and prefix.lower() in PLATFORMS:
        if prefix.lower() != own_platform:
            return None
        name = rest
    return room_key(own_platform, name, default_platform, workspace(own_room))


def delivery_platform(key: str, platforms: tuple[str, ...]) -> str | None:
    """The configured platform a store key's room lives on (`platforms`: the configured ones, the
    default first), or None when the deployment no longer configures it. A room keyed for a platform
    that was removed (two platforms became one) has nowhere to go: its room id means nothing on the
    others, so a post for it must be refused (a failed run, `chat_refused`), never sent to the same
    bare id elsewhere. A bare key is a room of the default platform."""
    platform, _ = split_room_key(key)
    if not platform:
        return platforms[0] if platforms else None
    return platform if platform in platforms else None


def platform_gone(key: str, platforms: tuple[str, ...]) -> bool:
    """Whether the room a store key names lives on a platform this deployment no longer configures."""
    return delivery_platform(key, platforms) is None


def allowed_key(entry: str, default_platform: str) -> str:
    """The store key of one `AllowedOutputRooms` entry: `slack:C123` is C123 on Slack; an entry without a
    platform prefix (`!news:example.org`, `C123`) is a room of the default platform."""
    platform, sep, room_id = entry.partition(":")
    if sep and platform.lower() in PLATFORMS:
        return room_key(platform.lower(), room_id, default_platform)
    return room_key("", entry, default_platform)


def output_allowed(output_key: str, own_room: str, allowed: tuple[str, ...], default_platform: str) -> bool:
    """Whether an agent call made in `own_room` may post to `output_key` (both store keys): its own room,
    or a room `allowed` names on that room's platform, so an id allowed on one platform never lets the
    same id string on another through. An allowed room is allowed on the caller's own platform, in its
    own workspace, only."""
    if output_key == own_room:
        return True
    if workspace(output_key) != workspace(own_room) or _platform(output_key, default_platform) != _platform(
        own_room, default_platform
    ):
        return False
    bare = without_workspace(output_key, default_platform)
    return any(allowed_key(entry, default_platform) == bare for entry in allowed)


def _platform(key: str, default_platform: str) -> str:
    return split_room_key(key)[0] or default_platform


def bare_room(key: str) -> str:
    """The platform's own room id of a store key."""
    return split_room_key(key)[1]


def addressed(message: ChatMessage, key: str, thread_id: str = "", actions: tuple[Action, ...] = ()) -> ChatMessage:
    """The message addressed to the room a store key names: its platform, its own room id, its workspace,
    the thread."""
    platform, room_id = split_room_key(key)
    return replace(
        message, room_id=room_id, platform=platform, workspace=workspace(key), thread_id=thread_id, actions=actions
    )
