"""Lint warnings: each code fires where the broker's reading differs, names the construct, offers a rewrite."""

from __future__ import annotations

import pytest

from groupctl.regex import is_valid, lint


def codes(pattern: str) -> list[str]:
    return [w.code for w in lint(pattern, valid=is_valid(pattern))]


def message(pattern: str, code: str) -> str:
    found = [w.message for w in lint(pattern, valid=is_valid(pattern)) if w.code == code]
    assert found, f"{code} did not fire for {pattern!r}: {codes(pattern)}"
    return found[0]


def rewrite(pattern: str, code: str) -> str:
    text = message(pattern, code)
    assert "; write `" in text, text
    return text.rsplit("; write `", 1)[1][:-1]


@pytest.mark.parametrize(
    "pattern",
    [
        "orders-.*", "orders-[0-9]+", ".*-events", "^orders$", "orders$", "[a-z]+\\.events", "", "(orders|payments)-.*",
        "^(orders.*)", "^orders-[a-z]+", "colou*r", "orders-(eu|us)",
    ],
)
def test_clean_patterns_have_no_warnings(pattern):
    assert codes(pattern) == []


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [("^orders", "^orders.*"), ("^(orders|payments)", "^(orders|payments).*"),
     ("^orders|payments", "^(?:orders|payments).*")],
)
def test_prefix_without_wildcard(pattern, expected):
    """A leading `^` is search syntax: the pattern was written for a match anywhere, topics or not."""
    assert codes(pattern) == ["prefix-without-wildcard"]
    text = message(pattern, "prefix-without-wildcard")
    assert f"write `{expected}`" in text
    assert "whole topic names" in text


TOPICS = ["orders", "orders-eu", "orders-us", "payments", "payments.v2.dlq"]


@pytest.mark.parametrize("pattern", ["orders", "orders-eu", "invoices", "payments\\.v2\\.dlq"])
def test_a_plain_topic_name_is_a_subscription_to_that_topic(pattern):
    """No topic list, or no listed topic that extends the name: nothing suggests a prefix was meant."""
    assert codes(pattern) == []
    assert lint(pattern, topics=["orders", "invoices", "payments.v2.dlq", "refunds"]) == []


@pytest.mark.parametrize(("pattern", "first", "more"), [("orders", "orders-eu", 1), ("payments", "payments.v2.dlq", 0),
                                                        ("order", "orders", 2)])
def test_a_plain_name_that_known_topics_extend_warns_naming_one(pattern, first, more):
    (warning,) = lint(pattern, topics=TOPICS)
    assert warning.code == "prefix-without-wildcard"
    assert f"matches only the topic '{pattern}', not '{first}'" in warning.message
    assert (f"nor {more} more known {'topic' if more == 1 else 'topics'}" in warning.message) == bool(more)
    assert warning.message.endswith(f"write `{pattern}.*`")


def test_an_anchored_name_names_a_known_topic_when_there_is_one():
    (warning,) = lint("^orders", topics=TOPICS)
    assert "not 'orders-eu'" in warning.message
    assert "not 'orders-1'" in lint("^orders")[0].message


@pytest.mark.parametrize(
    ("pattern", "expected"), [("^topic*", "^topic.*"), ("orders-*", "orders-.*"), ("\\Qtopic\\E*", "\\Qtopic\\E.*")]
)
def test_glob_star(pattern, expected):
    assert codes(pattern) == ["glob-star"]
    assert rewrite(pattern, "glob-star") == expected
    assert "repeats only" in message(pattern, "glob-star")


def test_brace_without_min_is_literal_text():
    assert codes("a{,3}") == ["brace-without-min"]
    assert rewrite("a{,3}", "brace-without-min") == "a{0,3}"
    assert "literal text" in message("a{,3}", "brace-without-min")
    assert rewrite("orders-[0-9]{,2}", "brace-without-min") == "orders-[0-9]{0,2}"


def test_brace_leading_zero():
    assert codes("x{01}") == ["brace-leading-zero"]
    assert rewrite("x{1,02}", "brace-leading-zero") == "x{1,2}"


def test_class_intersection_gets_the_flat_class():
    assert codes("[a-z&&[^aeiou]]") == ["class-intersection"]
    assert rewrite("[a-z&&[^aeiou]]", "class-intersection") == "[b-df-hj-np-tv-z]"
    assert rewrite("orders-[a-z&&[^x]]+", "class-intersection") == "orders-[a-wyz]+"
    assert "`&`" in message("[a-z&&[^aeiou]]", "class-intersection")


def test_class_intersection_under_negation_is_named_without_a_guess():
    assert "write" not in message("[^a-z&&[aeiou]]", "class-intersection")


def test_nested_class_union():
    assert codes("[a-c[x-z]]") == ["nested-class"]
    assert rewrite("[a-c[x-z]]", "nested-class") == "[a-cx-z]"


def test_capital_z_anchor():
    assert codes("orders-.*\\Z") == ["capital-z-anchor"]
    assert rewrite("orders-.*\\Z", "capital-z-anchor") == "orders-.*"
    assert rewrite("a\\Zb", "capital-z-anchor") == "a\\zb"


@pytest.mark.parametrize(
    ("pattern", "code", "expected"),
    [
        ("(?=orders).*", "lookahead", "orders.*"),
        ("^(?!tmp).*", "lookahead", "^(?:[^t].*|t(?:[^m].*)?|tm(?:[^p].*)?)"),
        ("(?!__).*", "lookahead", "(?:[^_].*|_(?:[^_].*)?)"),
        ("a*+", "possessive-quantifier", "a*"),
        ("a++b", "possessive-quantifier", "a+b"),
        ("a{2}+", "possessive-quantifier", "a{2}"),
        ("(?>ab|a)c", "atomic-group", "(?:ab|a)c"),
        ("(?#note)orders", "inline-comment", "orders"),
        ("(?u)orders", "unsupported-flag", "orders"),
        ("(?iu:x)", "unsupported-flag", "(?i:x)"),
        ("(?'n'x)", "quoted-group-name", "(?P<n>x)"),
        ("\\e", "unsupported-escape", "\\x{1B}"),
        ("\\u0041", "unsupported-escape", "\\x{41}"),
        ("\\N{LATIN SMALL LETTER A}", "unsupported-escape", "\\x{61}"),
        ("\\p{Lower}+", "unsupported-property", "[a-z]+"),
        ("[\\p{Alpha}_]", "unsupported-property", "[a-zA-Z_]"),
        ("\\p{IsLatin}", "unsupported-property", "\\p{Latin}"),
        ("\\C", "any-byte-escape", "."),
        ("(?P<n>a)(?P<n>b)", "duplicate-group-name", "(?P<n>a)(b)"),
        ("(?P<é>x)", "group-name", "(x)"),
    ],
)
def test_constructs_re2_lacks_are_named_with_a_rewrite(pattern, code, expected):
    assert not is_valid(pattern)
    assert code in codes(pattern)
    assert rewrite(pattern, code) == expected
    assert is_valid(expected), f"the suggested {expected!r} must itself be valid"


@pytest.mark.parametrize(
    ("pattern", "code", "named"),
    [
        ("(?<=eu-)orders", "lookbehind", "lookbehind"),
        ("(?<!tmp)x", "lookbehind", "lookbehind"),
        ("^(?!tmp)", "lookahead", "lookahead"),
        ("(a)\\1", "backreference", "backreference"),
        ("(?P<n>a)(?P=n)", "backreference", "backreference"),
        ("\\k<n>", "backreference", "backreference"),
        ("(?(1)a|b)", "conditional", "conditional"),
        ("(?x)a b", "unsupported-flag", "spaces"),
        ("\\X", "unsupported-escape", "no equivalent"),
        ("\\p{Adlam}", "unsupported-property", "Unicode 6.0"),
    ],
)
def test_constructs_without_a_rewrite_are_still_named(pattern, code, named):
    assert not is_valid(pattern)
    assert code in codes(pattern)
    assert named in message(pattern, code)


def test_every_message_is_one_line_and_codes_are_kebab_case():
    patterns = ["^orders", "^topic*", "a{,3}", "[a-z&&[^aeiou]]", "\\Z", "(?=a).*", "(a)\\1", "a*+", "(?>a)", "\\h"]
    for pattern in patterns:
        for warning in lint(pattern, valid=is_valid(pattern)):
            assert "\n" not in warning.message
            assert warning.code == warning.code.lower() and " " not in warning.code and "_" not in warning.code


def test_meaning_lints_only_for_valid_patterns():
    assert "prefix-without-wildcard" not in codes("orders(")
