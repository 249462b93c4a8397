"""The widgets of the terminal game's screen that Textual does not have as they are."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.widgets import RichLog


class MoveLog(RichLog):
    """The move log: its lines are wrapped again when its width changes, and its newest line
    stays in view whenever its size changes (a resized terminal, a status line grown to two)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(wrap=True, min_width=10, **kwargs)
        self.source: list[str] = []
        self._width = 0

    def add(self, line: str) -> None:
        """Write ``line`` at the bottom and keep it in view."""
        self.source.append(line)
        self.write(line, scroll_end=True)

    def on_resize(self, event: events.Resize) -> None:
        width = event.size.width
        if self._size_known and width != self._width:
            self.clear()
            for line in self.source:
                self.write(line, scroll_end=False)
        self._width = width
        self.call_after_refresh(self.scroll_end, animate=False)


__all__ = ["MoveLog"]
