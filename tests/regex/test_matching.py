"""Full matching as the broker does it: Pattern.matcher(topic).matches(), never a search."""

from __future__ import annotations

import random
import re

import pytest
import re2

from groupctl.regex import compile_topic_regex


@pytest.mark.parametrize(
    ("pattern", "topic", "expected"),
    [
        # `^topic*`: RE2/J and java matches() say false; Python re.search (librdkafka's classic behaviour) said true.
        ("^topic*", "topic-1", False),
        ("^topic*", "topi", True),
        ("^topic*", "topic", True),
        ("^topic*", "topiccc", True),
        ("^topic.*", "topic-1", True),
        # a prefix written without `.*` matches the one exact name only
        ("orders", "orders-1", False),
        ("orders", "orders", True),
        ("orders", "my-orders", False),
        ("orders.*", "orders-1", True),
        # `{,3}` is literal text in RE2 (Python would read {0,3})
        ("a{,3}", "aa", False),
        ("a{,3}", "a", False),
        ("a{,3}", "a{,3}", True),
        ("a{0,3}", "aa", True),
        # Java's class intersection is literal characters, then a literal `]`
        ("[a-z&&[^aeiou]]", "b", False),
        ("[a-z&&[^aeiou]]", "b]", True),
        ("[a-z&&[^aeiou]]", "&]", True),
        # alternation is matched as a whole, not alternative by alternative as a prefix
        ("orders|payments", "orders-eu", False),
        ("orders|payments", "payments", True),
        ("x{01}", "x{01}", True),
        ("x{01}", "x", False),
    ],
)
def test_full_match(pattern, topic, expected):
    assert compile_topic_regex(pattern).matches(topic) is expected


def test_the_search_semantics_that_used_to_apply_differ():
    assert re.search("^topic*", "topic-1") and not compile_topic_regex("^topic*").matches("topic-1")
    assert re.search("orders", "orders-1") and not compile_topic_regex("orders").matches("orders-1")
    assert re.fullmatch("a{,3}", "aa") and not compile_topic_regex("a{,3}").matches("aa")


def test_select_is_sorted_without_repeats():
    regex = compile_topic_regex("orders-.*|__.*")
    topics = ["orders-b", "payments", "orders-a", "orders-b", "__consumer_offsets"]
    assert regex.select(topics) == ["__consumer_offsets", "orders-a", "orders-b"]
    assert regex.select([]) == []


def test_unknown_script_matches_no_topic_character():
    assert not compile_topic_regex("\\p{Unknown}").matches("a")
    assert compile_topic_regex("\\P{Unknown}+").matches("orders.v1-eu_2")
    assert compile_topic_regex("[\\p{Unknown}a]+").matches("aaa")
    assert not compile_topic_regex("[^\\P{Unknown}]").matches("a")


def test_large_programs_match():
    regex = compile_topic_regex("\\pL{1000}")
    assert regex.matches("a" * 1000)
    assert not regex.matches("a" * 999)


@pytest.mark.parametrize(
    "pattern",
    [
        "(a{1,64}\\.){1,20}",
        "([a-z0-9]{1,64}\\.){1,20}[a-z]+",
        "((a{10}){10}){11}",
        "((ab?){0,40}c){0,30}",
        "(a{2}){501}",
    ],
)
def test_nested_repetition_matches_like_a_backtracking_engine(pattern):
    """C++ RE2 cannot compile these; the bounded rewrite must agree with Python's re on every name."""
    regex, oracle = compile_topic_regex(pattern), re.compile(pattern)
    rng = random.Random(pattern)
    names = ["", "a", "a.", "a" * 1002, "a" * 1000, "c" * 30, "abc" * 20]
    for _ in range(150):
        alphabet = rng.choice(["a", "a.", "abc", "ab.c", "xyz"])
        names.append("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 260))))
        names.append(("a" * rng.randint(1, 12) + ".") * rng.randint(1, 25))
    for name in names:
        assert regex.matches(name) is bool(oracle.fullmatch(name)), (pattern, name)


def test_nested_repetition_that_cannot_fit_a_topic_name_matches_nothing_short():
    regex = compile_topic_regex("(a{1000}){1000}")
    assert not regex.matches("a" * 249)
    assert not regex.matches("")


def test_cpp_re2_would_refuse_the_nested_patterns():
    options = re2.Options()
    options.log_errors = False
    with pytest.raises(re2.error):
        re2.compile("(a{1,64}\\.){1,20}", options)


def test_bounded_rewrite_agrees_with_cpp_re2_where_both_apply():
    """The rewrite used for nested counts must not change what any pattern C++ RE2 compiles matches."""
    from groupctl.regex.bounded import BoundedMatcher, parse
    from groupctl.regex.matching import _atom_for_cpp
    from groupctl.regex.syntax import tokenize

    atoms = ["a", "b", "(", ")", "|", "*", "+", "?", "{2}", "{1,3}", "{0,2}", "{2,}", "[ab]", "[^a]", "^", "$",
             ".", "\\d", "(?P<n>", "(?i)", "(?:", "-", "\\pL", "{", "}", ",", "0", "\\x41", "\\Qa*\\E", "*?", "\\b"]
    rng = random.Random(5)
    options = re2.Options()
    options.log_errors = False
    checked = 0
    while checked < 400:
        pattern = "".join(rng.choice(atoms) for _ in range(rng.randint(1, 8)))
        try:
            direct = re2.compile(pattern, options)
        except re2.error:
            continue
        bounded = BoundedMatcher(parse(tokenize(pattern), _atom_for_cpp))
        for _ in range(10):
            name = "".join(rng.choice("abAB01-{},") for _ in range(rng.randint(0, 12)))
            assert bounded.fullmatch(name) is (direct.fullmatch(name) is not None), (pattern, name)
        checked += 1


def test_rewritten_patterns_keep_escapes_apart():
    # \p{Unknown} makes C++ RE2 see a rewritten pattern; the quoted 1 must stay a literal, not join \0.
    regex = compile_topic_regex("\\P{Unknown}\\0\\Q1\\E")
    assert regex.matches("a\x001")
    assert not regex.matches("a\x01")
