"""How many terminal cells text takes, and text cut or folded to a number of cells.

Tables are fitted to the terminal in cells, not characters: an East Asian wide character or an emoji
takes two cells and a combining mark none, so a table measured with len() is ragged and overflows.
Group ids, topic names and record values may hold any Unicode a Kafka string carries.
"""

from __future__ import annotations

import unicodedata

ELLIPSIS = "…"


def char_cells(ch: str) -> int:
    """Cells one character takes: 0 for combining marks and format characters, 2 for wide ones."""
    if unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def cells(text: str) -> int:
    """Cells `text` takes on one terminal line (ASCII, the usual case, costs one len())."""
    if text.isascii():
        return len(text)
    return sum(char_cells(ch) for ch in text)


def _prefix(text: str, room: int) -> tuple[str, int]:
    """The longest start of `text` that fits `room` cells, and its length in characters."""
    used = 0
    for i, ch in enumerate(text):
        used += char_cells(ch)
        if used > room:
            return text[:i], i
    return text, len(text)


def cut(text: str, width: int) -> str:
    """`text` in at most `width` cells: cut, with an ellipsis saying so, when it is longer."""
    if cells(text) <= width:
        return text
    if width < 1:
        return ""
    if text.isascii():
        return text[: width - 1] + ELLIPSIS
    return _prefix(text, width - 1)[0] + ELLIPSIS


def fold(text: str, width: int) -> list[str]:
    """`text` in pieces of at most `width` cells, none lost: for values that must stay whole to be copied."""
    width = max(width, 2)  # a wide character needs two cells; one would loop forever
    if cells(text) <= width:
        return [text]
    pieces = []
    while text:
        piece, taken = _prefix(text, width)
        pieces.append(piece)
        text = text[taken:]
    return pieces


def pad(text: str, width: int) -> str:
    """`text` followed by spaces up to `width` cells (nothing added when it is already as wide)."""
    if text.isascii():
        return text.ljust(width)
    return text + " " * (width - cells(text))
