"""Read a report page back (stdlib html.parser): its tables' cells, its charts' marks, its
headings, and every tag with its attributes (#30)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

#: (group or "", section, table or chart name, row, column) -> (data-value, text)
Key = tuple[str, str, str, str, str]


@dataclass
class Page:
    cells: dict[Key, tuple[str | None, str]] = field(default_factory=dict)
    marks: dict[Key, str] = field(default_factory=dict)
    headings: list[str] = field(default_factory=list)
    title: str = ""
    h1: str = ""
    tags: list[tuple[str, dict[str, str | None]]] = field(default_factory=list)
    texts: defaultdict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def table(self, name: str, group: str = "", section: str | None = None) -> dict[Any, Any]:
        """``{(row, col): (data-value, text)}`` of the table ``name``."""
        return {
            (k[3], k[4]): v
            for k, v in self.cells.items()
            if k[2] == name and k[0] == group and (section is None or k[1] == section)
        }

    def chart(self, name: str, group: str = "") -> dict[Any, str]:
        return {(k[3], k[4]): v for k, v in self.marks.items() if k[2] == name and k[0] == group}


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.page = Page()
        self.stack: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] | None = None
        self.where: str | None = None  # "title", "h1", "h2", "td"
        self.cell: tuple[Key, str | None] | None = None

    def _attr(self, name: str) -> str:
        for _, attrs in reversed(self.stack):
            if attrs.get(name) is not None:
                return str(attrs[name])
        return ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.page.tags.append((tag, a))
        if tag not in ("meta", "br", "hr", "img", "input", "link", "line"):
            self.stack.append((tag, a))
        if tag == "rect" and "data-value" in a:
            chart = self._attr("data-chart")
            key = (self._attr("data-group"), self._attr("data-section"), chart)
            row, col = a.get("data-row") or "", a.get("data-col") or ""
            self.page.marks[(*key, row, col)] = str(a["data-value"])
        if tag in ("title", "h1", "h2", "td") and not any(t == "svg" for t, _ in self.stack):
            self.where, self.text = tag, []
            if tag == "td":
                key = (
                    self._attr("data-group"),
                    self._attr("data-section"),
                    self._attr("data-table"),
                    self._attr("data-row"),
                    a.get("data-col") or "",
                )
                self.cell = (key, a.get("data-value"))

    def handle_endtag(self, tag: str) -> None:
        while any(t == tag for t, _ in self.stack):
            top, _ = self.stack.pop()
            if top == tag:
                break
        if tag == self.where and self.text is not None:
            text = "".join(self.text).strip()
            if tag == "title":
                self.page.title = text
            elif tag == "h1":
                self.page.h1 = text
            elif tag == "h2":
                self.page.headings.append(text)
            elif tag == "td" and self.cell is not None:
                self.page.cells[self.cell[0]] = (self.cell[1], text)
            self.where, self.text, self.cell = None, None, None

    def handle_data(self, data: str) -> None:
        if self.text is not None:
            self.text.append(data)
        self.page.texts[self.stack[-1][0] if self.stack else ""].append(data)


def read(page: str) -> Page:
    reader = _Reader()
    reader.feed(page)
    reader.close()
    return reader.page
