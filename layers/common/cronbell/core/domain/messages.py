"""A chat message as the domain hands it to a chat sender: its text, the same text in styled pieces (for
platforms that render their own markup), its thread, its buttons and where it goes."""

from __future__ import annotations

from cronbell.core.domain.actions import Action
from cronbell.core.values import value

PLAIN = "plain"
STRONG = "strong"
MENTION = "mention"


@value
class Span:
    """One piece of a message. `plain` and `strong` text is untrusted text, clipped and with "@room"
    defused but not escaped: each platform escapes it for its own markup. A `mention` holds a user id."""

    text: str
    style: str = PLAIN  # PLAIN | STRONG | MENTION


@value
class ChatMessage:
    """One chat message, platform-neutral: what a ChatSender posts (core/text/chat_text writes its texts)."""

    room_id: str
    text: str  # plain body
    html: str  # HTML formatted body
    mentions: tuple[str, ...] = ()  # user ids mentioned
    spans: tuple[Span, ...] = ()  # the same message in pieces; empty for a message built by hand
    thread_id: str = ""  # post into this thread of the room ("" = the main timeline)
    actions: tuple[Action, ...] = ()  # quick actions rendered as buttons where the platform has them
    platform: str = ""  # which configured backend delivers it ("" = the default one)
    workspace: str = ""  # the workspace the room is in, on a platform with several (Slack's team id)

    def parts(self) -> tuple[Span, ...]:
        """The spans, or the plain body as one plain span when the message was built without them."""
        return self.spans or (Span(self.text),)
