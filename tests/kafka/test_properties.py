"""Java .properties syntax, as java.util.Properties.load reads it, and -X overrides."""

from __future__ import annotations

from pathlib import Path

import pytest

from groupctl.errors import GroupctlError, UsageError
from groupctl.kafka.properties import load_properties, parse_overrides, parse_properties


def test_separators_comments_and_blank_lines() -> None:
    text = """
# a comment
! another comment
   bootstrap.servers=host:9092
security.protocol : SASL_SSL
sasl.mechanism    SCRAM-SHA-512
empty.value=
just.a.key
a=b=c
    """
    assert parse_properties(text) == {
        "bootstrap.servers": "host:9092",
        "security.protocol": "SASL_SSL",
        "sasl.mechanism": "SCRAM-SHA-512",
        "empty.value": "",
        "just.a.key": "",
        "a": "b=c",
    }


def test_continuation_lines() -> None:
    text = (
        "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \\\n"
        '    username="alice" \\\n'
        '    password="secret";\n'
        "next=1\n"
        "# not a comment when continued: \\\n"
        "after=2\n"
    )
    props = parse_properties(text)
    assert props["sasl.jaas.config"] == (
        'org.apache.kafka.common.security.scram.ScramLoginModule required username="alice" password="secret";'
    )
    assert props["next"] == "1" and props["after"] == "2"


def test_continued_line_starting_with_a_hash_is_not_a_comment() -> None:
    assert parse_properties("a=1\\\n#2\nb=3") == {"a": "1#2", "b": "3"}


def test_escapes() -> None:
    text = r"""key\=with\:seps=v
tabs=a\tb
uni=\u0041\u00e9
path=C:\\temp\\x
odd\ key=1
trailing=two\\
last=x"""
    assert parse_properties(text) == {
        "key=with:seps": "v",
        "tabs": "a\tb",
        "uni": "Aé",
        "path": "C:\\temp\\x",
        "odd key": "1",
        "trailing": "two\\",
        "last": "x",
    }


def test_a_continuation_at_the_end_of_the_file_is_dropped() -> None:
    assert parse_properties("a=1\\") == {"a": "1"}


def test_later_keys_win() -> None:
    assert parse_properties("a=1\na=2") == {"a": "2"}


def test_bad_unicode_escape() -> None:
    with pytest.raises(GroupctlError, match=r"line 2: malformed \\uxxxx"):
        parse_properties("ok=1\nbad=\\u12G4")


def test_load_utf8_latin1_and_bom(tmp_path: Path) -> None:
    utf8 = tmp_path / "a.properties"
    utf8.write_bytes("\ufeffclient.id=grüße\n".encode())
    assert load_properties(utf8) == {"client.id": "grüße"}
    latin1 = tmp_path / "b.properties"
    latin1.write_bytes("client.id=gr\xfc\xdfe\n".encode("iso-8859-1"))
    assert load_properties(latin1) == {"client.id": "grüße"}


def test_missing_file_names_it(tmp_path: Path) -> None:
    with pytest.raises(GroupctlError, match=r"cannot read the client config .*nope\.properties"):
        load_properties(tmp_path / "nope.properties")


def test_overrides() -> None:
    assert parse_overrides(["a=1", " b =x=y", "c="]) == {"a": "1", "b": "x=y", "c": ""}
    for bad in ("novalue", "=1"):
        with pytest.raises(UsageError, match="expected key=value"):
            parse_overrides([bad])
