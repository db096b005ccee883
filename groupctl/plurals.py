"""Counts with nouns that agree: `1 group`, `2 groups`, never `1 groups` nor `group(s)`.

Messages and summaries count groups, members, offsets, records and findings all the time; one
helper keeps every one of them grammatical. Kafka's own messages, copied word for word where
groupctl answers as a broker, keep Kafka's wording and do not use this.
"""

from __future__ import annotations


def plural(count: int, singular: str, plural_form: str | None = None) -> str:
    """The noun (or verb) for `count`: `singular` for exactly one, else `plural_form` (default: + "s")."""
    return singular if count == 1 else plural_form or f"{singular}s"


def counted(count: int, singular: str, plural_form: str | None = None) -> str:
    """`count` followed by its noun: `1 finding`, `3 findings`, `0 batches` with plural_form="batches"."""
    return f"{count} {plural(count, singular, plural_form)}"
