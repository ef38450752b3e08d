"""HTML as a client renders it: the tags with their attributes, and the visible text."""

from __future__ import annotations

from html.parser import HTMLParser


class Tags(HTMLParser):
    """Collects the tags and attributes a client would render, and the text between them."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text += data


def parse_html(html: str) -> Tags:
    parser = Tags()
    parser.feed(html)
    parser.close()
    return parser
