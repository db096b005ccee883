"""What the broker's RE2/J (com.google.re2j 1.8) says, where C++ RE2 says something else.

The broker reports `PatternSyntaxException.getDescription()`, which is RE2/J's bare error
text: no fragment of the pattern follows it. C++ RE2 words the same errors differently and
appends the fragment, so its messages are mapped here rather than passed through.
"""

from __future__ import annotations

# RE2/J's error descriptions (its Parser's error constants).
INTERNAL_ERROR = "regexp/syntax: internal error"  # what RE2/J throws for an unmatched ')'
INVALID_CHAR_CLASS = "invalid character class"
INVALID_CHAR_RANGE = "invalid character class range"
INVALID_ESCAPE = "invalid escape sequence"
INVALID_NAMED_CAPTURE = "invalid named capture"
INVALID_PERL_OP = "invalid or unsupported Perl syntax"
INVALID_REPEAT_OP = "invalid nested repetition operator"
INVALID_REPEAT_SIZE = "invalid repeat count"
MISSING_BRACKET = "missing closing ]"
MISSING_PAREN = "missing closing )"
MISSING_REPEAT_ARGUMENT = "missing argument to repetition operator"
TRAILING_BACKSLASH = "trailing backslash at end of expression"
DUPLICATE_NAMED_CAPTURE = "duplicate capture group name"

# `\p{...}` names RE2/J knows: its Unicode 6.0 tables (general categories and scripts) and "Any".
# C++ RE2 knows newer scripts (rejected by the broker) and lacks "Unknown" (accepted by it).
UNICODE_CATEGORIES = frozenset(
    {
        "C", "Cc", "Cf", "Co", "Cs", "L", "Ll", "Lm", "Lo", "Lt", "Lu", "M", "Mc", "Me", "Mn", "N", "Nd", "Nl", "No",
        "P", "Pc", "Pd", "Pe", "Pf", "Pi", "Po", "Ps", "S", "Sc", "Sk", "Sm", "So", "Z", "Zl", "Zp", "Zs"
    }
)
UNICODE_SCRIPTS = frozenset(
    {
        "Arabic", "Armenian", "Avestan", "Balinese", "Bamum", "Batak", "Bengali", "Bopomofo", "Brahmi", "Braille",
        "Buginese", "Buhid", "Canadian_Aboriginal", "Carian", "Cham", "Cherokee", "Common", "Coptic", "Cuneiform",
        "Cypriot", "Cyrillic", "Deseret", "Devanagari", "Egyptian_Hieroglyphs", "Ethiopic", "Georgian", "Glagolitic",
        "Gothic", "Greek", "Gujarati", "Gurmukhi", "Han", "Hangul", "Hanunoo", "Hebrew", "Hiragana",
        "Imperial_Aramaic", "Inherited", "Inscriptional_Pahlavi", "Inscriptional_Parthian", "Javanese", "Kaithi",
        "Kannada", "Katakana", "Kayah_Li", "Kharoshthi", "Khmer", "Lao", "Latin", "Lepcha", "Limbu", "Linear_B",
        "Lisu", "Lycian", "Lydian", "Malayalam", "Mandaic", "Meetei_Mayek", "Mongolian", "Myanmar", "New_Tai_Lue",
        "Nko", "Ogham", "Ol_Chiki", "Old_Italic", "Old_Persian", "Old_South_Arabian", "Old_Turkic", "Oriya",
        "Osmanya", "Phags_Pa", "Phoenician", "Rejang", "Runic", "Samaritan", "Saurashtra", "Shavian", "Sinhala",
        "Sundanese", "Syloti_Nagri", "Syriac", "Tagalog", "Tagbanwa", "Tai_Le", "Tai_Tham", "Tai_Viet", "Tamil",
        "Telugu", "Thaana", "Thai", "Tibetan", "Tifinagh", "Ugaritic", "Unknown", "Vai", "Yi"
    }
)
UNICODE_NAMES = UNICODE_CATEGORIES | UNICODE_SCRIPTS | {"Any"}


def valid_group_name(name: str) -> bool:
    """RE2/J takes [A-Za-z0-9_]+ (C++ RE2 also takes non-ASCII letters)."""
    return bool(name) and all(c == "_" or (c.isascii() and c.isalnum()) for c in name)


# C++ RE2's error texts (RE2::ErrorCode strings) and RE2/J's description for each. Longest first:
# "invalid character class range" must win over "invalid character class".
_FROM_CPP = (
    ("missing )", MISSING_PAREN),
    ("unexpected )", INTERNAL_ERROR),
    ("missing ]", MISSING_BRACKET),
    ("invalid escape sequence", INVALID_ESCAPE),
    ("trailing \\", TRAILING_BACKSLASH),
    ("bad repetition operator", INVALID_REPEAT_OP),
    ("no argument for repetition operator", MISSING_REPEAT_ARGUMENT),
    ("invalid repetition size", INVALID_REPEAT_SIZE),
    ("invalid character class range", INVALID_CHAR_RANGE),
    ("invalid character class", INVALID_CHAR_CLASS),
    ("invalid named capture group", INVALID_NAMED_CAPTURE),
)


def description_from_cpp(message: str) -> str:
    """RE2/J's description for a C++ RE2 parse error ("missing ): (a" -> "missing closing )").

    A lookbehind is the one place where the two disagree on the kind: RE2/J reads every `(?<` as
    the start of a named group, so `(?<=a)` fails there as an invalid named capture.
    """
    if message.startswith("invalid perl operator"):
        fragment = message.partition(": ")[2]
        return INVALID_NAMED_CAPTURE if fragment.startswith("(?<") else INVALID_PERL_OP
    for cpp, re2j in _FROM_CPP:
        if message.startswith(cpp):
            return re2j
    return message
