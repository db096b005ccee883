"""Warnings for patterns that change meaning, or stop compiling, when the broker takes them over.

Before KIP-848 the client matched the regex: Java's consumer with java.util.regex, librdkafka by
searching for a match anywhere in the name. The broker compiles with RE2/J and matches whole
names. Each warning has a stable kebab-case code and a one-line message that names the construct
and, where one exists, the pattern to write instead.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from groupctl.plurals import plural
from groupctl.regex import re2j
from groupctl.regex.bounded import RegexTooComplex, max_width, parse
from groupctl.regex.engine import cpp_error
from groupctl.regex.javaclass import java_class, re2_class
from groupctl.regex.syntax import RE2_FLAGS, Kind, Token, literal_text, tokenize


@dataclass(frozen=True)
class LintWarning:
    code: str
    message: str


def _replace(p: str, start: int, end: int, text: str) -> str:
    return p[:start] + text + p[end:]


def _write(message: str, rewrite: str | None) -> str:
    return message if rewrite is None else f"{message}; write `{rewrite}`"


# Java's \p{...} names that RE2 spells differently: (outside a class, inside one).
_JAVA_PROPERTIES = {
    "Lower": ("[a-z]", "a-z"),
    "Upper": ("[A-Z]", "A-Z"),
    "ASCII": ("[\\x00-\\x7F]", "\\x00-\\x7F"),
    "Alpha": ("[a-zA-Z]", "a-zA-Z"),
    "Digit": ("[0-9]", "0-9"),
    "Alnum": ("[a-zA-Z0-9]", "a-zA-Z0-9"),
    "Punct": ("[[:punct:]]", "[:punct:]"),
    "Graph": ("[[:graph:]]", "[:graph:]"),
    "Print": ("[[:print:]]", "[:print:]"),
    "Blank": ("[ \\t]", " \\t"),
    "Cntrl": ("[[:cntrl:]]", "[:cntrl:]"),
    "XDigit": ("[0-9a-fA-F]", "0-9a-fA-F"),
    "Space": ("[\\t\\n\\x0B\\f\\r ]", "\\t\\n\\x0B\\f\\r "),
    "javaLowerCase": ("\\p{Ll}", "\\p{Ll}"),
    "javaUpperCase": ("\\p{Lu}", "\\p{Lu}"),
    "javaDigit": ("\\p{Nd}", "\\p{Nd}"),
    "javaLetter": ("\\pL", "\\pL"),
    "javaLetterOrDigit": ("[\\pL\\p{Nd}]", "\\pL\\p{Nd}"),
    "javaWhitespace": ("\\s", "\\s"),
    "L&": ("[\\p{Lu}\\p{Ll}\\p{Lt}]", "\\p{Lu}\\p{Ll}\\p{Lt}"),
    "LC": ("[\\p{Lu}\\p{Ll}\\p{Lt}]", "\\p{Lu}\\p{Ll}\\p{Lt}"),
}


def _property_rewrite(name: str, negated: bool, in_class: bool) -> str | None:
    """RE2 for a Java-only \\p name, or None."""
    if name in _JAVA_PROPERTIES and not negated:
        return _JAVA_PROPERTIES[name][1 if in_class else 0]
    bare = name.removeprefix("Is").removeprefix("In")
    for candidate in (bare, bare.capitalize(), bare.title()):
        if candidate in re2j.UNICODE_NAMES and candidate != name:
            letter = "P" if negated else "p"
            return f"\\{letter}{{{candidate}}}"
    return None


# Escapes of Java/PCRE/Python that RE2 lacks: (what it is, outside a class, inside one).
_ESCAPES = {
    "h": ("horizontal whitespace", "[\\t \\x{A0}\\x{1680}\\x{180E}\\x{2000}-\\x{200A}\\x{202F}\\x{205F}\\x{3000}]",
          "\\t \\x{A0}\\x{1680}\\x{180E}\\x{2000}-\\x{200A}\\x{202F}\\x{205F}\\x{3000}"),
    "H": ("not horizontal whitespace", "[^\\t \\x{A0}\\x{1680}\\x{180E}\\x{2000}-\\x{200A}\\x{202F}\\x{205F}\\x{3000}]",
          None),
    "R": ("a line break", "(?:\\r\\n|[\\n\\x0B\\f\\r\\x{85}\\x{2028}\\x{2029}])", None),
    "V": ("not vertical whitespace", "[^\\n\\x0B\\f\\r\\x{85}\\x{2028}\\x{2029}]", None),
    "X": ("a grapheme cluster", None, None),
    "G": ("the end of the previous match", None, None),
    "K": ("keep-out (reset the match start)", None, None),
}


def _escape_warning(p: str, tok: Token, in_class: bool) -> LintWarning:
    letter = tok.text[1:2]
    if tok.value and letter in "uNce":
        kinds = {"u": "a UTF-16 escape", "N": "a named character", "c": "a control character", "e": "the ESC character"}
        spelled = _replace(p, tok.start, tok.end, f"\\x{{{ord(tok.value):X}}}")
        message = f"`{tok.text}` ({kinds[letter]}) is not RE2 syntax and the broker rejects it"
        return LintWarning("unsupported-escape", _write(message, spelled))
    what, outside, inside = _ESCAPES.get(letter, ("", None, None))
    text = (inside if in_class else outside) if what else None
    rewrite = None if text is None else _replace(p, tok.start, tok.end, text)
    named = f" ({what})" if what else ""
    message = f"`{tok.text}`{named} is not RE2 syntax and the broker rejects it"
    if rewrite is None and letter in "GKX":
        message += "; RE2 has no equivalent"
    return LintWarning("unsupported-escape", _write(message, rewrite))


def _group_end(tokens: list[Token], k: int) -> int:
    """Index of the token that closes the group opened at tokens[k], or len(tokens)."""
    depth = 0
    for j in range(k, len(tokens)):
        t = tokens[j]
        if t.kind is Kind.OPEN or (t.kind is Kind.FOREIGN and t.opens):
            depth += 1
        elif t.kind is Kind.CLOSE:
            depth -= 1
            if depth == 0:
                return j
    return len(tokens)


def _not_prefix(literal: str) -> str:
    """RE2 for non-empty names that do not start with `literal` (the negative lookahead's meaning)."""
    alts = []
    for i, c in enumerate(literal):
        head = "".join(literal_text(x) for x in literal[:i])
        other = f"[^{literal_text(c)}].*"
        alts.append(other if i == 0 else f"{head}(?:{other})?")
    return f"(?:{'|'.join(alts)})"


def _lookahead_rewrite(p: str, tokens: list[Token], k: int) -> str | None:
    """`^(?!tmp).*` and `(?=orders).*` have RE2 forms; other lookarounds do not."""
    lead = tokens[:k]
    if lead and not (len(lead) == 1 and lead[0].text == "^"):
        return None
    end = _group_end(tokens, k)
    body, rest = tokens[k + 1 : end], tokens[end + 1 :]
    if not body or any(t.kind is not Kind.LITERAL for t in body):
        return None
    if [t.text for t in rest if t.text != "$"] != [".", "*"]:
        return None
    literal = "".join(t.value for t in body)
    prefix = "^" if lead else ""
    if tokens[k].text == "(?=":
        return prefix + "".join(literal_text(c) for c in literal) + ".*"
    return prefix + _not_prefix(literal)


def _foreign(p: str, tokens: list[Token], k: int) -> LintWarning:
    tok = tokens[k]
    code = tok.construct
    if code == "lookahead":
        rewrite = _lookahead_rewrite(p, tokens, k)
        message = f"lookahead `{tok.text}` is not RE2 syntax and the broker rejects it"
        if rewrite is None:
            message += "; RE2 has no lookaround: select the topics with a positive pattern"
        return LintWarning(code, _write(message, rewrite))
    if code == "lookbehind":
        return LintWarning(code, f"lookbehind `{tok.text}` is not RE2 syntax and the broker rejects it; RE2 has no "
                                 "lookaround: select the topics with a positive pattern")
    if code == "backreference":
        return LintWarning(code, f"backreference `{tok.text}` is not RE2 syntax and the broker rejects it; RE2 "
                                 "cannot match repeated text: spell the text out or list the alternatives")
    if code == "atomic-group":
        message = "atomic group `(?>` is not RE2 syntax and the broker rejects it; RE2 never backtracks"
        return LintWarning(code, _write(message, _replace(p, tok.start, tok.end, "(?:")))
    if code == "inline-comment":
        message = f"comment `{tok.text}` is not RE2 syntax and the broker rejects it"
        return LintWarning(code, _write(message, _replace(p, tok.start, tok.end, "") or None))
    if code == "unsupported-flag":
        return _flag_warning(p, tok)
    if code == "quoted-group-name":
        message = f"group name syntax `{tok.text}` is not RE2's and the broker rejects it"
        return LintWarning(code, _write(message, _replace(p, tok.start, tok.end, f"(?P<{tok.value}>")))
    if code == "capital-z-anchor":
        last = k == len(tokens) - 1
        message = "`\\Z` is not RE2 syntax and the broker rejects it; full matching already anchors the end"
        return LintWarning(code, _write(message, _replace(p, tok.start, tok.end, "" if last else "\\z") or None))
    if code == "unsupported-escape":
        return _escape_warning(p, tok, in_class=False)
    names = {"conditional": "conditional group", "branch-reset": "branch reset group", "recursion": "recursion"}
    return LintWarning(code, f"{names.get(code, code)} `{tok.text}` is not RE2 syntax and the broker rejects it; "
                             "RE2 has no equivalent")


def _flag_warning(p: str, tok: Token) -> LintWarning:
    unsupported = "".join(sorted(set(tok.value) - RE2_FLAGS - {"-"}))
    kept = "".join(c for c in tok.value if c in RE2_FLAGS or c == "-").strip("-")
    opens = tok.text.endswith(":")
    message = f"flag{'s' if len(unsupported) > 1 else ''} `{unsupported}` in `{tok.text}` "
    message += "not supported by RE2 (it has i, m, s and U) and the broker rejects it"
    if "x" in unsupported and re.search(r"\s|#", p):
        return LintWarning("unsupported-flag", message + "; drop the flag and write the pattern without spaces "
                                                         "and comments")
    replacement = f"(?{kept}:" if opens else (f"(?{kept})" if kept else "")
    return LintWarning("unsupported-flag", _write(message, _replace(p, tok.start, tok.end, replacement) or None))


def _unicode_warning(p: str, name: str, negated: bool, start: int, end: int, in_class: bool) -> LintWarning:
    text = p[start:end]
    rewrite_text = _property_rewrite(name, negated, in_class)
    if rewrite_text is not None:
        message = f"`{text}` is Java syntax, not RE2's, and the broker rejects it"
        return LintWarning("unsupported-property", _write(message, _replace(p, start, end, rewrite_text)))
    if cpp_error(f"\\p{{{name}}}") is None:
        return LintWarning("unsupported-property", f"`{text}`: the broker's RE2/J has Unicode 6.0 tables and does "
                                                   "not know this name (C++ RE2 does); list the characters instead")
    return LintWarning("unsupported-property", f"`{text}` is not a Unicode category or script RE2 knows")


def _class_warnings(p: str, tok: Token) -> list[LintWarning]:
    out = []
    for item in tok.items:
        if item.name not in re2j.UNICODE_NAMES:
            out.append(_unicode_warning(p, item.name, item.negated, item.start, item.end, in_class=True))
    for esc in tok.foreign:
        if esc.construct == "unsupported-escape":
            out.append(_escape_warning(p, esc, in_class=True))
        else:
            out.append(LintWarning(esc.construct, f"`{esc.text}` inside `{tok.text}` is not RE2 syntax and the "
                                                  "broker rejects it"))
    body = tok.text[1:]
    nested = intersect = False
    i = 0
    while i < len(body):
        if body[i] == "\\":
            i += 2
            continue
        if body.startswith("&&", i):
            intersect = True
        if body[i] == "[" and not body.startswith("[:", i) and i > (1 if body.startswith("^") else 0):
            nested = True
        i += 1
    if not (nested or intersect):
        return out
    java = java_class(p, tok.start)
    rewrite = None
    if java is not None and not (intersect and tok.negated):
        members, end = java
        rewrite = _replace(p, tok.start, end, re2_class(members))
        text = p[tok.start : end]
    else:
        text = tok.text
    if intersect:
        message = (f"`{text}` is Java class intersection (`&&`), which RE2 lacks: the broker reads `&` and `[` "
                   "as literal characters")
        out.append(LintWarning("class-intersection", _write(message, rewrite)))
    else:
        message = f"`{text}` nests a class (Java union), which RE2 lacks: the broker reads the inner `[` literally"
        out.append(LintWarning("nested-class", _write(message, rewrite)))
    return out


_BRACE_NO_MIN = re.compile(r"\{,(\d*)\}")
_BRACE_ZERO = re.compile(r"\{(\d+)(?:(,)(\d*))?\}")


def _brace_warning(p: str, tok: Token) -> LintWarning | None:
    """A `{` RE2 reads as a literal although Python or Java read a repetition there."""
    m = _BRACE_NO_MIN.match(p, tok.start)
    if m:
        fixed = f"{{0,{m.group(1)}}}"
        message = (f"`{m.group(0)}` is literal text in RE2 (Python reads it as `{fixed}`, Java rejects it), so the "
                   "broker matches the characters themselves")
        return LintWarning("brace-without-min", _write(message, _replace(p, m.start(), m.end(), fixed)))
    m = _BRACE_ZERO.match(p, tok.start)
    if m:
        lo = int(m.group(1))
        hi = "" if m.group(3) in (None, "") else str(int(m.group(3)))
        fixed = f"{{{lo}}}" if not m.group(2) else f"{{{lo},{hi}}}"
        message = (f"`{m.group(0)}` is literal text in RE2 because of the leading zero (Java and Python read "
                   f"`{fixed}`)")
        return LintWarning("brace-leading-zero", _write(message, _replace(p, m.start(), m.end(), fixed)))
    return None


def _top_level_alternation(tokens: list[Token]) -> bool:
    depth = 0
    for t in tokens:
        if t.kind is Kind.OPEN:
            depth += 1
        elif t.kind is Kind.CLOSE:
            depth -= 1
        elif t.kind is Kind.ALT and depth == 0:
            return True
    return False


def _glob_star(p: str, tokens: list[Token]) -> LintWarning | None:
    """`topic*` or `orders-*` written as a shell glob: `*` repeats the last character only."""
    for k, tok in enumerate(tokens):
        if tok.kind is not Kind.REPEAT or tok.text not in ("*", "*?") or k < 2:
            continue
        if not (tokens[k - 1].kind is Kind.LITERAL and tokens[k - 2].kind is Kind.LITERAL):
            continue
        after = tokens[k + 1 :]
        separator = after and after[0].kind is Kind.LITERAL and after[0].value in "-._"
        if after and not (separator or (len(after) == 1 and after[0].text == "$")):
            continue
        run = []
        j = k - 1
        while j >= 0 and tokens[j].kind is Kind.LITERAL:
            run.append(tokens[j].value)
            j -= 1
        word = "".join(reversed(run))
        rewrite = _replace(p, tok.start, tok.end, ".*")
        message = (f"`{word}*` is not a glob: `*` repeats only '{word[-1]}', so the broker does not match names "
                   f"that merely start with '{word}'")
        return LintWarning("glob-star", _write(message, rewrite))
    return None


def _unbounded(tokens: list[Token]) -> bool:
    """Whether the pattern can match names of any length (it ends in `.*`, `[0-9]+`, ...)."""
    try:
        return max_width(parse(tokens, lambda t: t.text)) == float("inf")
    except RegexTooComplex:
        return True


def _extending(name: str, topics: Sequence[str] | None) -> list[str]:
    """The known topics whose names start with `name` and go on: what a prefix pattern would select."""
    return sorted(t for t in topics or () if len(t) > len(name) and t.startswith(name))


def _prefix(p: str, tokens: list[Token], topics: Sequence[str] | None) -> LintWarning | None:
    """Patterns written for a search (a match anywhere) rather than a whole-name match.

    A plain topic name is how a subscription to that one topic is written, so it is only suspect when a
    known topic extends it (the author may have meant all of them); a leading `^` is search syntax
    whatever the topics are.
    """
    if not tokens:
        return None
    last = tokens[-1]
    if last.text in ("$", "\\z"):
        return None
    anchored = tokens[0].text == "^"
    body = tokens[1:] if anchored else tokens
    if body and all(t.kind is Kind.LITERAL for t in body):
        name = "".join(t.value for t in body)
        longer = _extending(name, topics)
        if not (anchored or longer):
            return None
        example = f"'{longer[0]}'" if longer else f"'{name}-1'"
        if len(longer) > 1:
            example += f" (nor {len(longer) - 1} more known {plural(len(longer) - 1, 'topic')} starting with '{name}')"
        message = (f"the broker matches whole topic names: `{p}` matches only the topic '{name}', not "
                   f"{example}; for a prefix write `{p}.*`")
        return LintWarning("prefix-without-wildcard", message)
    if anchored and body and not _unbounded(tokens):
        rewrite = f"^(?:{p[1:]}).*" if _top_level_alternation(tokens) else p + ".*"
        message = (f"`{p}` starts with `^` as for a search, but the broker matches whole topic names, so it does "
                   f"not match longer names; for a prefix write `{rewrite}`")
        return LintWarning("prefix-without-wildcard", message)
    return None


def lint(pattern: str, tokens: list[Token] | None = None, *, valid: bool = True,
         topics: Sequence[str] | None = None) -> list[LintWarning]:
    """Warnings for `pattern`; the meaning lints (prefix, glob) only apply when the broker accepts it.

    `topics`, the known topic names when there is a list, lets the prefix lint tell a plain topic name
    (no warning) from one that other topics extend.
    """
    tokens = tokenize(pattern) if tokens is None else tokens
    out: list[LintWarning] = []
    names: set[str] = set()
    for k, tok in enumerate(tokens):
        if tok.kind is Kind.FOREIGN:
            out.append(_foreign(pattern, tokens, k))
        elif tok.kind is Kind.ANY_BYTE:
            message = "`\\C` (any byte) is rejected by the broker's RE2/J although C++ RE2 accepts it"
            out.append(LintWarning("any-byte-escape", _write(message, _replace(pattern, tok.start, tok.end, "."))))
        elif tok.kind is Kind.OPEN and tok.construct == "named-group":
            if not re2j.valid_group_name(tok.value):
                message = f"group name '{tok.value}': the broker's RE2/J allows only A-Z, a-z, 0-9 and _"
                fixed = _replace(pattern, tok.start, tok.end, "(")
                out.append(LintWarning("group-name", _write(message, fixed)))
            elif tok.value in names:
                message = f"group name '{tok.value}' is used twice, which the broker's RE2/J rejects"
                fixed = _replace(pattern, tok.start, tok.end, "(")
                out.append(LintWarning("duplicate-group-name", _write(message, fixed)))
            names.add(tok.value)
        elif tok.kind is Kind.UNICODE_CLASS and tok.value not in re2j.UNICODE_NAMES:
            out.append(_unicode_warning(pattern, tok.value, tok.negated, tok.start, tok.end, in_class=False))
        elif tok.kind is Kind.CLASS:
            out.extend(_class_warnings(pattern, tok))
        elif tok.kind is Kind.LITERAL and tok.value == "{" and not tok.from_quote:
            warning = _brace_warning(pattern, tok)
            if warning is not None:
                out.append(warning)
        elif tok.kind is Kind.REPEAT and tok.text == "+" and k > 0 and tokens[k - 1].kind is Kind.REPEAT:
            prev = tokens[k - 1]
            if not prev.lazy:
                message = (f"possessive quantifier `{prev.text}+` is not RE2 syntax and the broker rejects it; "
                           "RE2 never backtracks, so the plain quantifier is what it has")
                out.append(LintWarning("possessive-quantifier",
                                       _write(message, _replace(pattern, tok.start, tok.end, ""))))
    if valid and not any(w.code.startswith("brace-") for w in out):
        meaning = _glob_star(pattern, tokens) or _prefix(pattern, tokens, topics)
        if meaning is not None:
            out.append(meaning)
    unique: list[LintWarning] = []
    for warning in out:
        if warning not in unique:
            unique.append(warning)
    return unique
