"""Matching for patterns the broker accepts but C++ RE2 will not compile as written.

C++ RE2 refuses nested counted repetitions whose counts multiply past 1000 (`(a{1,64}\\.){1,20}`)
and very large programs; RE2/J accepts both. To match such a pattern the same way, it is
rewritten into an equivalent one for names no longer than a bound L:

- `x{n,m}` never needs more than L iterations that consume input, so counts are clamped: to
  L // minwidth(x) when x always consumes, to L + 1 otherwise; a repetition that cannot fit in
  L characters matches nothing.
- counted repetitions are then written out as copies where needed so that no chain of nested
  counts multiplies past 1000, which is C++ RE2's limit.

The rewrite is exact for every name of at most L characters; L is the name's length rounded up
to a power of two, so a handful of compiled variants serve any list of topic names.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from groupctl.regex.engine import compile_cpp
from groupctl.regex.syntax import Kind, Token

_ATOMS = {Kind.LITERAL, Kind.CLASS, Kind.ESCAPE_CLASS, Kind.UNICODE_CLASS, Kind.DOT, Kind.ASSERT}
_WALKER_BUDGET = 1000  # C++ RE2's limit on the product of nested counts
_MAX_TEXT = 2_000_000  # characters of rewritten pattern before giving up


class RegexTooComplex(RuntimeError):
    """The broker accepts the pattern, but no rewrite of it fits C++ RE2 for a name this long."""


@dataclass
class Node:
    kind: str  # "atom", "flags", "seq", "alt", "group", "repeat"
    text: str = ""  # atom/flags: the pattern text; group: its opener
    width: int = 0  # atom: 1 for a character, 0 for an assertion
    subs: list[Node] = field(default_factory=list)
    min: int = 0
    max: int = -1
    counted: bool = False
    op: str = ""  # uncounted repeat: *, + or ?


class _Parser:
    def __init__(self, tokens: list[Token], atom_text) -> None:
        self.tokens = tokens
        self.pos = 0
        self.atom_text = atom_text

    def alt(self) -> Node:
        options = [self.seq()]
        while self.pos < len(self.tokens) and self.tokens[self.pos].kind is Kind.ALT:
            self.pos += 1
            options.append(self.seq())
        return options[0] if len(options) == 1 else Node("alt", subs=options)

    def seq(self) -> Node:
        items: list[Node] = []
        while self.pos < len(self.tokens) and self.tokens[self.pos].kind not in (Kind.ALT, Kind.CLOSE):
            tok = self.tokens[self.pos]
            self.pos += 1
            if tok.kind is Kind.OPEN:
                flags = tok.value if tok.construct != "named-group" else ""
                body = self.alt()
                if self.pos >= len(self.tokens) or self.tokens[self.pos].kind is not Kind.CLOSE:
                    raise RegexTooComplex("unbalanced group")
                self.pos += 1
                items.append(Node("group", text=f"(?{flags}:", subs=[body]))
            elif tok.kind is Kind.FLAGS:
                items.append(Node("flags", text=tok.text))
            elif tok.kind is Kind.REPEAT:
                # A repetition applies to the last item; flags set in between stay where they are.
                idx = next((i for i in range(len(items) - 1, -1, -1) if items[i].kind != "flags"), None)
                if idx is None:
                    raise RegexTooComplex("repetition without an argument")
                op = "" if tok.counted else tok.text[0]
                items[idx] = Node("repeat", subs=[items[idx]], min=tok.min, max=tok.max, counted=tok.counted, op=op)
            elif tok.kind in _ATOMS:
                width = 0 if tok.kind is Kind.ASSERT else 1
                items.append(Node("atom", text=self.atom_text(tok), width=width))
            else:
                raise RegexTooComplex(f"unexpected {tok.kind.value} token")
        return Node("seq", subs=items)


def parse(tokens: list[Token], atom_text) -> Node:
    """The tree of a pattern RE2/J accepts; `atom_text(token)` writes each atom for C++ RE2."""
    parser = _Parser(tokens, atom_text)
    tree = parser.alt()
    if parser.pos != len(tokens):
        raise RegexTooComplex("unbalanced group")
    return tree


def min_width(node: Node) -> int:
    if node.kind == "atom":
        return node.width
    if node.kind == "flags":
        return 0
    if node.kind == "seq":
        return sum(min_width(s) for s in node.subs)
    if node.kind == "alt":
        return min(min_width(s) for s in node.subs)
    if node.kind == "group":
        return min_width(node.subs[0])
    return node.min * min_width(node.subs[0])


def max_width(node: Node) -> float:
    """The longest text the node can match (inf when unbounded)."""
    if node.kind == "atom":
        return node.width
    if node.kind == "flags":
        return 0
    if node.kind == "seq":
        return sum(max_width(s) for s in node.subs)
    if node.kind == "alt":
        return max(max_width(s) for s in node.subs)
    if node.kind == "group":
        return max_width(node.subs[0])
    inner = max_width(node.subs[0])
    if inner == 0:
        return 0
    return float("inf") if node.max == -1 else node.max * inner


class _Writer:
    """Writes the tree for names of at most `limit` characters; None stands for "matches nothing"."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.size = 0

    def _grow(self, text: str) -> str:
        self.size += len(text)
        if self.size > _MAX_TEXT:
            raise RegexTooComplex("the rewrite for this name length is too large")
        return text

    def write(self, node: Node, budget: int) -> str | None:
        if node.kind in ("atom", "flags"):
            return self._grow(node.text)
        if node.kind == "seq":
            parts = []
            for sub in node.subs:
                part = self.write(sub, budget)
                if part is None:
                    return None
                parts.append(part)
            return "".join(parts)
        if node.kind == "alt":
            parts = [p for p in (self.write(s, budget) for s in node.subs) if p is not None]
            return f"(?:{'|'.join(parts)})" if parts else None
        if node.kind == "group":
            body = self.write(node.subs[0], budget)
            return None if body is None else self._grow(f"{node.text}{body})")
        return self._repeat(node, budget)

    def _repeat(self, node: Node, budget: int) -> str | None:
        sub = node.subs[0]
        lo, hi = node.min, node.max
        if not node.counted:
            body = self.write(sub, budget)
            if body is None:
                return "" if lo == 0 else None
            return self._grow(f"(?:{body}){node.op}")
        width = min_width(sub)
        if width > 0:
            cap = self.limit // width
            if lo > cap:
                return None
            if hi != -1:
                hi = min(hi, cap)
        else:
            lo = min(lo, self.limit + 1)
            if hi != -1:
                hi = min(hi, self.limit + 1)
        weight = hi if hi > 0 else lo
        if weight <= 1 or weight <= budget:
            body = self.write(sub, budget // max(weight, 1))
            if body is None:
                return "" if lo == 0 else None
            count = f"{{{lo}}}" if lo == hi else f"{{{lo},{'' if hi == -1 else hi}}}"
            return self._grow(f"(?:{body}){count}")
        # Too many for C++ RE2 to nest: write the copies out.
        body = self.write(sub, budget)
        if body is None:
            return "" if lo == 0 else None
        unit = f"(?:{body})"
        tail = f"{unit}*" if hi == -1 else f"{unit}?" * (hi - lo)
        return self._grow(unit * lo + tail)


@dataclass
class BoundedMatcher:
    """Full matching through per-length rewrites, compiled on first use for each length bucket."""

    tree: Node
    compiled: dict[int, object] = field(default_factory=dict)

    def _for(self, length: int):
        limit = 16
        while limit < length:
            limit *= 2
        if limit not in self.compiled:
            text = _Writer(limit).write(self.tree, _WALKER_BUDGET)
            if text is None:
                self.compiled[limit] = None
            else:
                regex, error = compile_cpp(text)
                if regex is None:
                    raise RegexTooComplex(f"C++ RE2 cannot compile the rewrite for names up to {limit}: {error}")
                self.compiled[limit] = regex
        return self.compiled[limit]

    def fullmatch(self, name: str) -> bool:
        regex = self._for(len(name))
        return regex is not None and regex.fullmatch(name) is not None
