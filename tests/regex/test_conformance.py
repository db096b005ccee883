"""The broker's verdict on topic regexes: what RE2/J (com.google.re2j 1.8) accepts and how it words a refusal.

Each row is (pattern, expected): None when RE2/J compiles the pattern, else the description RE2/J's
PatternSyntaxException.getDescription() returns, which the broker puts after "is not a valid regular
expression: ". Sources: ../shared/reference/re2.md (§5.2, §5.3), RE2's syntax documentation, and
RE2/J's parser (its error constants and the rules behind each).
"""

from __future__ import annotations

import pytest
import re2

from groupctl.regex import (
    InvalidRegex,
    broker_error_message,
    compile_topic_regex,
    is_valid,
    kafka_tool_message,
)

PERL = "invalid or unsupported Perl syntax"
NAMED = "invalid named capture"
ESCAPE = "invalid escape sequence"
NESTED = "invalid nested repetition operator"
COUNT = "invalid repeat count"
RANGE = "invalid character class range"
NO_ARG = "missing argument to repetition operator"
PAREN = "missing closing )"
BRACKET = "missing closing ]"
TRAILING = "trailing backslash at end of expression"
DUPLICATE = "duplicate capture group name"
UNMATCHED = "regexp/syntax: internal error"  # RE2/J has no "unexpected )": its parser fails on the empty stack

VALID = [
    # literals, the common topic-regex shapes
    "",
    "orders",
    "orders-.*",
    ".*",
    ".+",
    "orders\\.v[0-9]+",
    "(orders|payments)-.*",
    "orders-eu|orders-us",
    "a||b",
    "(|a)",
    "()",
    # repetition
    "a*",
    "a+",
    "a?",
    "a*?",
    "a+?",
    "a??",
    "a{3}",
    "a{2,5}",
    "a{2,}",
    "a{0}",
    "a{2}?",
    "a{1000}",
    "a{0,1000}",
    "a{1000,}",
    "^*",  # a repeated empty-width assertion is allowed
    # `{` that is not RE2's repetition grammar is a literal
    "a{,3}",
    "a{",
    "a{1",
    "a{1,",
    "a{x}",
    "x{01}",
    "x{1,02}",
    "{",
    "a{1,2,3}",
    # groups and flags
    "(a)",
    "(?:a)",
    "(?P<name>a)",
    "(?<name>a)",
    "(?P<a1_B>x)",
    "(?P<1a>x)",
    "(?P<n>a)(?P<m>b)",
    "(?i)orders",
    "(?i:orders)-.*",
    "(?s).",
    "(?m)^a$",
    "(?U)a*",
    "(?i-s:a)",
    "(?im-sU)x",
    "(?)",
    # classes
    "[abc]",
    "[a-z]",
    "[^a-z]",
    "[]a]",
    "[^]a]",
    "[a-]",
    "[-a]",
    "[\\]a]",
    "[[:alpha:]]",
    "[[:^digit:]]",
    "[[:word:]]",
    "[a-z&&[^aeiou]]",  # compiles in RE2: `&` and `[` are literal characters (re2.md §5.3)
    "\\d\\D\\s\\S\\w\\W",
    "[\\d\\s]",
    "\\pL",
    "\\p{L}",
    "\\p{Lu}",
    "\\p{Greek}",
    "\\p{^Greek}",
    "\\PL",
    "\\P{^Greek}",
    "\\p{Any}",
    "[\\p{Latin}\\d]",
    # escapes
    "\\Q.*\\E",
    "\\Qa(b\\E+",
    "\\Q",
    "\\x41",
    "\\x{41}",
    "\\x{10FFFF}",
    "\\101",
    "\\0",
    "\\12",
    "\\a\\f\\t\\n\\r\\v",
    "\\.\\-\\_\\*",
    "a\\\\",
    # anchors
    "\\b",
    "\\B",
    "\\A",
    "\\z",
    "^orders$",
    "\\Aorders\\z",
    # RE2/J accepts what C++ RE2 refuses (see DIVERGENT)
    "(a{1000}){1000}",
    "(a{2}){501}",
    "(a{1,64}\\.){1,20}",
    "((a{10}){10}){11}",
    "\\pL{1000}",
    "\\p{Unknown}",
    "[\\p{Unknown}x]",
]

INVALID = [
    # Java/Python constructs RE2 lacks (re2.md §5.2)
    ("(?=orders).*", PERL),
    ("(?!tmp).*", PERL),
    ("(?<=a)b", NAMED),  # RE2/J reads every `(?<` as a named group
    ("(?<!a)b", NAMED),
    ("(a)\\1", ESCAPE),
    ("(?P=n)", PERL),
    ("(?P<n>a)(?P=n)", PERL),
    ("a*+", NESTED),
    ("a++b", NESTED),
    ("a?+", NESTED),
    ("a{2}+", NESTED),
    ("(?>ab|a)c", PERL),
    ("(?x)a b", PERL),
    ("(?#c)", PERL),
    ("(?'n'x)", PERL),
    ("(?(1)a|b)", PERL),
    ("\\Z", ESCAPE),
    ("orders\\Z", ESCAPE),
    ("\\h", ESCAPE),
    ("\\R", ESCAPE),
    ("\\X", ESCAPE),
    ("\\e", ESCAPE),
    ("\\cA", ESCAPE),
    ("\\u0041", ESCAPE),
    ("\\N{LATIN SMALL LETTER A}", ESCAPE),
    ("\\8", ESCAPE),
    ("\\G", ESCAPE),
    ("\\k<n>", ESCAPE),
    ("\\p{Lower}", RANGE),
    ("\\p{IsLatin}", RANGE),
    ("\\p{Foo}", RANGE),
    ("[[:foo:]]", RANGE),
    # repetition
    ("a{1001}", COUNT),
    ("a{1001,}", COUNT),
    ("a{0,1001}", COUNT),
    ("x{2,1}", COUNT),
    ("a{99999999}", COUNT),
    ("a{999999999}", COUNT),
    ("a{1234567890123}", COUNT),  # C++ RE2 reads this as literal text
    ("a{1,1234567890123}", COUNT),
    ("{1001}", COUNT),  # the count is checked before the missing argument
    ("**", NO_ARG),
    ("*a", NO_ARG),
    ("a|*", NO_ARG),
    ("(*)", NO_ARG),
    ("{1}", NO_ARG),
    ("(?i)*", NO_ARG),
    ("a**", NESTED),
    ("a*??", NESTED),
    ("a{2}{3}", NESTED),
    # structure
    ("(a", PAREN),
    ("(?P<n>a", PAREN),
    ("((a)", PAREN),
    ("a)", UNMATCHED),
    ("(a))", UNMATCHED),
    ("[a", BRACKET),
    ("[]", BRACKET),
    ("[^]", BRACKET),
    ("[a\\]", BRACKET),
    ("[z-a]", RANGE),
    ("a\\", TRAILING),
    ("\\", TRAILING),
    ("[a-\\d]", ESCAPE),
    ("\\x{110000}", ESCAPE),
    ("\\x{}", ESCAPE),
    ("\\xZ1", ESCAPE),
    ("\\E", ESCAPE),
    ("[\\Q]\\E]", ESCAPE),
    ("[\\C]", ESCAPE),
    ("\\pX", RANGE),
    ("\\p", RANGE),
    ("\\p{L", RANGE),
    # flags
    ("(?i", PERL),
    ("(?-)", PERL),
    ("(?i-)", PERL),
    ("(?u)x", PERL),
    # group names
    ("(?P<name", NAMED),
    ("(?P<>a)", NAMED),
    ("(?P<a-b>x)", NAMED),
    # C++ RE2 accepts these; RE2/J does not (see DIVERGENT)
    ("\\C", ESCAPE),
    ("orders\\C*", ESCAPE),
    ("(?P<n>a)(?P<n>b)", DUPLICATE),
    ("(?P<n>a)|(?<n>b)", DUPLICATE),
    ("(?P<é>x)", NAMED),
    ("\\p{Adlam}", RANGE),
    ("[\\p{Kawi}a]", RANGE),
    # which error RE2/J meets first, left to right
    ("(\\C", ESCAPE),  # \C before the missing ')' at the end
    ("a)\\C", UNMATCHED),  # the stray ')' comes first
    ("(?P<n>a)(?P<n>", DUPLICATE),  # the second name before the missing ')'
    ("a**(?P<n>a)(?P<n>b)", NESTED),
    ("[a-\\p{Adlam}]", ESCAPE),  # a range cannot end in a class escape: that error comes first
    ("(a{2}){501}(", PAREN),  # the nested counts are fine for RE2/J; the paren is not
]

# Where C++ RE2 (google-re2) alone would give the wrong verdict: (pattern, google-re2 compiles it).
DIVERGENT = [
    ("\\C", True),
    ("(?P<n>a)(?P<n>b)", True),
    ("(?P<é>x)", True),
    ("\\p{Adlam}", True),
    ("(a{1000}){1000}", False),
    ("(a{2}){501}", False),
    ("(a{1,64}\\.){1,20}", False),
    ("\\p{Unknown}", False),
    ("a{1234567890123}", True),
]


def test_the_table_is_large_enough():
    assert len(VALID) + len(INVALID) >= 100
    assert len({*VALID, *(p for p, _ in INVALID)}) == len(VALID) + len(INVALID)


@pytest.mark.parametrize("pattern", VALID)
def test_broker_accepts(pattern):
    assert is_valid(pattern)
    assert compile_topic_regex(pattern).pattern == pattern


@pytest.mark.parametrize(("pattern", "description"), INVALID)
def test_broker_rejects_with_re2j_description(pattern, description):
    with pytest.raises(InvalidRegex) as info:
        compile_topic_regex(pattern)
    assert info.value.description == description
    assert info.value.pattern == pattern
    assert str(info.value) == f"SubscribedTopicRegex `{pattern}` is not a valid regular expression: {description}."
    assert not is_valid(pattern)


@pytest.mark.parametrize(("pattern", "cpp_compiles"), DIVERGENT)
def test_divergent_constructs_need_the_shim(pattern, cpp_compiles):
    options = re2.Options()
    options.log_errors = False
    try:
        re2.compile(pattern, options)
        compiled = True
    except re2.error:
        compiled = False
    assert compiled is cpp_compiles
    assert is_valid(pattern) is not cpp_compiles


def test_invalid_regex_is_a_value_error_and_cached_results_raise_fresh_exceptions():
    errors = []
    for _ in range(2):
        with pytest.raises(ValueError) as info:
            compile_topic_regex("(a")
        errors.append(info.value)
    assert errors[0] is not errors[1]
    assert compile_topic_regex("orders-.*") is compile_topic_regex("orders-.*")


def test_messages_in_kafkas_words():
    assert broker_error_message("a(", "missing closing )") == (
        "SubscribedTopicRegex `a(` is not a valid regular expression: missing closing )."
    )
    assert kafka_tool_message("orders-.*", None) == "The regular expression `orders-.*` is valid."
    assert kafka_tool_message("a(", "missing closing )") == "The regular expression `a(` is invalid: missing closing )."
