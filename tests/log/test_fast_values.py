"""Group-record values decoded by the compiled loop's programs (`value_programs`) against the generated
decoders: the same dicts, keys in the same order, values of the same types, on every shared vector
and on hypothesis-generated values; anything the programs do not read cleanly goes to the reference."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groupctl.errors import DecodeError
from groupctl.log import decode as decode_module
from groupctl.log import fast
from groupctl.log.decode import decoded_batches
from groupctl.log.segment import iter_batches
from groupctl.log.synthetic import mixed_dump
from groupctl.log.writer import SimpleRecord, build_batch
from groupctl.protocol.record_schemas import KEY_SCHEMAS, VALUE_SCHEMAS
from groupctl.protocol.records import RecordValue, decode_key, decode_value, encode_key, encode_value
from groupctl.protocol.schema import UNKNOWN_TAGS, field, message
from groupctl.protocol.value_programs import (
    MAX_SLOTS,
    MAX_TYPES,
    MAX_VERSIONS,
    SKIPPED_TYPES,
    compile_program,
    value_programs,
)
from tests.conftest import KAFKA_40_VECTORS, VECTORS
from tests.log.conftest import NOT_BUILT
from tests.strategies import message_values

pytestmark = pytest.mark.skipif(not fast.available(), reason=NOT_BUILT)

SEGMENTS = sorted(p for base in (VECTORS, KAFKA_40_VECTORS) if base.is_dir() for p in base.rglob("*.log"))
GROUP_VERSIONS = [(t, v) for t, msg in sorted(VALUE_SCHEMAS.items()) if t not in SKIPPED_TYPES for v in msg.versions]


def _native() -> Any:
    with fast.forced(False):
        return fast.module()


def assert_identical(got: Any, want: Any, where: str = "value") -> None:
    """Equal, and of the same types all the way down, dict keys in the same order (`==` alone takes
    True for 1 and ignores key order)."""
    assert type(got) is type(want), f"{where}: {type(got).__name__} != {type(want).__name__}"
    if isinstance(want, dict):
        assert list(got) == list(want), f"{where}: keys {list(got)} != {list(want)}"
        for k in want:
            assert_identical(got[k], want[k], f"{where}.{k}")
    elif isinstance(want, (list, tuple)):
        assert len(got) == len(want), f"{where}: {len(got)} items != {len(want)}"
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            assert_identical(g, w, f"{where}[{i}]")
    else:
        assert repr(got) == repr(want), f"{where}: {got!r} != {want!r}"


def _reference(record_type: int, value: bytes) -> Any:
    """The generated decoder's value, or its error (type and text)."""
    try:
        return decode_value(record_type, value)
    except DecodeError as exc:
        return (type(exc).__name__, str(exc))


def assert_compiled_matches(record_type: int, value: bytes) -> bool:
    """The program's value is the reference's; when it declines (None), the reference is left to decide.
    Whether the program gave a value."""
    got = _native().decode_value(record_type, value)
    if got is None:
        return False
    assert_identical(got, _reference(record_type, value))
    return True


# --- the programs -------------------------------------------------------------------------------


def test_every_group_value_schema_has_a_program() -> None:
    programs = value_programs(VALUE_SCHEMAS)
    assert [(t, v) for t, v, _, _ in programs] == GROUP_VERSIONS
    assert {2, 3, 4, 5, 6, 7, 8, 16} <= {t for t, _ in GROUP_VERSIONS}


def test_what_the_compiled_loop_cannot_hold_is_left_to_the_reference() -> None:
    wide = message("Wide", "0-20", "0+", [field(f"F{i}", "int8") for i in range(MAX_SLOTS + 1)])
    narrow = message("Narrow", "0-20", "0+", [field("F", "int8")])
    with pytest.raises(ValueError, match="at most"):
        compile_program(wide, 0)
    programs = value_programs({2: wide, 3: narrow, MAX_TYPES: narrow})
    assert [(t, v) for t, v, _, _ in programs] == [(3, v) for v in range(MAX_VERSIONS)]


def test_a_malformed_program_is_refused() -> None:
    ops, consts = compile_program(VALUE_SCHEMAS[3], 0)
    native = _native()
    with pytest.raises(ValueError, match="malformed value program"):
        native.set_value_programs([(3, 0, ops[:-4], consts)])
    with pytest.raises(ValueError, match="malformed value program"):
        native.set_value_programs([(3, 0, ops, ())])
    native.set_value_programs([(3, 0, ops, consts)])  # the good one is still in place
    value = encode_value(3, 0, {"epoch": 4, "metadataHash": 9})
    assert assert_compiled_matches(3, value)


# Every kind a program knows, most of them in no record schema yet (bool, float64, uint32, records,
# untagged nullable structs, arrays of every fixed type...): a message of its own, installed under a
# record type no key names.
_SUB = [field("A", "int32"), field("B", "string", nullable="0+"), field("C", "[]int16")]
EVERY_KIND = message("EveryKind", "0-2", "1+", [
    field("Flag", "bool"), field("Tiny", "int8"), field("Short", "int16"), field("Port", "uint16"),
    field("Int", "int32"), field("Count", "uint32"), field("Long", "int64"), field("Ratio", "float64"),
    field("Id", "uuid"), field("Name", "string"), field("Maybe", "string", nullable="0+"),
    field("Blob", "bytes", nullable="0+"), field("Batch", "records", "1+"),
    field("Flags", "[]bool"), field("Tinies", "[]int8"), field("Ports", "[]uint16"), field("Counts", "[]uint32"),
    field("Longs", "[]int64"), field("Ratios", "[]float64"), field("Ids", "[]uuid"), field("Names", "[]string"),
    field("Blobs", "[]bytes", "0-1"), field("Inner", "Inner", nullable="0+", fields=_SUB),
    field("Items", "[]Item", nullable="1+", fields=[*_SUB, field("D", "int64", tag=0, default=7)]),
    field("Epoch", "int32", tag=0, default=-1), field("Label", "string", nullable="1+", tag=1, default="null"),
    field("Extra", "Extra", tag=2, fields=_SUB), field("Parts", "[]int32", nullable="1+", tag=3, default="null"),
    field("Scale", "float64", tag=4, default="1.5"), field("Owner", "uuid", tag=5), field("On", "bool", tag=6,
                                                                                           default="true"),
    field("Late", "int64", "2+", tag=7, default=3), field("Opt", "Opt", nullable="1+", tag=8, fields=_SUB),
])
EVERY_KIND_TYPE = 63


def _install_every_kind() -> Any:
    native = _native()
    native.set_value_programs([(EVERY_KIND_TYPE, v, *compile_program(EVERY_KIND, v)) for v in EVERY_KIND.versions])
    return native


def _every_kind_reference(buf: bytes) -> Any:
    version = int.from_bytes(buf[:2], "big", signed=True)
    try:
        data, end = EVERY_KIND.decoder(version)(buf, 2)
    except (DecodeError, ValueError) as exc:
        return exc
    return RecordValue(version, data) if end == len(buf) else None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_every_kind_decodes_as_the_generated_decoder(data: st.DataObject) -> None:
    native = _install_every_kind()
    version = data.draw(st.sampled_from(list(EVERY_KIND.versions)))
    value = data.draw(message_values(EVERY_KIND, version, unknown_tags=data.draw(st.booleans())))
    buf = version.to_bytes(2, "big") + EVERY_KIND.encoder(version)(value)
    got = native.decode_value(EVERY_KIND_TYPE, buf)
    assert got is not None, "a valid value was handed to the reference"
    assert_identical(got, _every_kind_reference(buf))
    for bad in _damaged(buf):
        got = native.decode_value(EVERY_KIND_TYPE, bad)
        if got is not None:
            assert_identical(got, _every_kind_reference(bad))


def test_a_tag_known_at_another_version_is_left_to_the_reference() -> None:
    native = _install_every_kind()
    buf = (1).to_bytes(2, "big") + EVERY_KIND.encoder(1)({"batch": b""})
    assert native.decode_value(EVERY_KIND_TYPE, buf) is not None
    assert buf[-1] == 0  # no tags: add tag 7 (Late, tagged from version 2 on)
    bad = buf[:-1] + bytes([1, 7, 1, 0])
    assert native.decode_value(EVERY_KIND_TYPE, bad) is None
    assert "Tag 7 is not valid for version 1" in str(_every_kind_reference(bad))


# --- the shared vectors --------------------------------------------------------------------------


def _group_values(path: Path) -> list[tuple[int, bytes]]:
    out = []
    with fast.forced(True):
        batches = list(iter_batches(path.read_bytes()))
    for batch in batches:
        if batch.is_control:
            continue
        for record in batch.records:
            if record.key is None or record.value is None:
                continue
            try:
                record_type = decode_key(record.key).type
            except DecodeError:
                continue
            if record_type not in SKIPPED_TYPES:
                out.append((record_type, bytes(record.value)))
    return out


@pytest.mark.skipif(not SEGMENTS, reason="the shared vectors (../shared/) are not present")
@pytest.mark.parametrize("path", SEGMENTS, ids=lambda p: str(p.relative_to(p.parents[2])))
def test_every_group_value_of_the_shared_vectors_decodes_identically(path: Path) -> None:
    for record_type, value in _group_values(path):
        reference = _reference(record_type, value)
        compiled = assert_compiled_matches(record_type, value)
        # a value the reference reads cleanly and wholly is read by the program, not handed back
        if isinstance(reference, RecordValue):
            assert compiled, f"{path.name}: type {record_type} value {value.hex()} was handed to the reference"


def test_the_shared_vectors_hold_group_records() -> None:
    if not SEGMENTS:
        pytest.skip("the shared vectors (../shared/) are not present")
    types = {t for path in SEGMENTS for t, _ in _group_values(path)}
    assert {2, 3, 5} <= types


# --- generated values ----------------------------------------------------------------------------


@st.composite
def group_values(draw: st.DrawFn) -> tuple[int, bytes, dict[str, Any]]:
    record_type, version = draw(st.sampled_from(GROUP_VERSIONS))
    msg = VALUE_SCHEMAS[record_type]
    data = draw(message_values(msg, version, unknown_tags=draw(st.booleans())))
    return record_type, encode_value(record_type, version, data), data


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(group_values())
def test_generated_group_values_decode_identically(case: tuple[int, bytes, dict[str, Any]]) -> None:
    record_type, value, _ = case
    assert assert_compiled_matches(record_type, value), "a valid value was handed to the reference"


def test_nulls_empty_arrays_and_unknown_tags_decode_identically() -> None:
    member = {
        "memberId": "m", "instanceId": None, "rackId": None, "clientId": "c", "clientHost": "h",
        "subscribedTopicNames": [], "subscribedTopicRegex": None, "rebalanceTimeoutMs": 5, "serverAssignor": None,
        "classicMemberMetadata": None, UNKNOWN_TAGS: [(7, b"x"), (30, b"")],
    }
    value = encode_value(5, 0, member)
    assert assert_compiled_matches(5, value)
    got = _native().decode_value(5, value)
    assert got.data[UNKNOWN_TAGS] == [(7, b"x"), (30, b"")] and got.data["classicMemberMetadata"] is None
    assert list(got.data)[-1] == UNKNOWN_TAGS
    group = {"protocolType": "consumer", "generation": 1, "protocol": None, "leader": None,
             "currentStateTimestamp": -1, "members": []}
    for version in VALUE_SCHEMAS[2].versions:
        assert assert_compiled_matches(2, encode_value(2, version, group))


def test_tagged_defaults_are_fresh_per_value() -> None:
    """Replay keeps decoded values: two records never share a default list or dict."""
    value = encode_value(5, 0, {"memberId": "m", "clientId": "c", "clientHost": "h"})
    native = _native()
    one, two = native.decode_value(5, value), native.decode_value(5, value)
    assert one == two
    assert one.data["classicMemberMetadata"] is not two.data["classicMemberMetadata"]
    assert one.data["classicMemberMetadata"]["supportedProtocols"] is not \
        two.data["classicMemberMetadata"]["supportedProtocols"]
    assert one.data["subscribedTopicNames"] is not two.data["subscribedTopicNames"]


# --- damaged values ------------------------------------------------------------------------------


def _damaged(value: bytes) -> list[bytes]:
    out = [value[:cut] for cut in range(len(value))]  # truncated at every byte
    for i in range(2, len(value)):
        for flip in (0xFF, 0x80, 0x7F, 0x01):
            bad = bytearray(value)
            bad[i] ^= flip
            out.append(bytes(bad))
    out += [value + b"\0", value + b"\x01\x02", b"\x7f\x00" + value[2:], b"\xff\xff" + value[2:]]
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(group_values())
def test_damaged_values_are_left_to_the_reference(case: tuple[int, bytes, dict[str, Any]]) -> None:
    """Truncated at every byte, bytes flipped (lengths, counts, tags, markers), trailing bytes, unknown
    versions: the program's value, when it gives one, is the reference's; it declines the rest, and the
    reference words every error."""
    record_type, value, _ = case
    results = [assert_compiled_matches(record_type, bad) for bad in _damaged(value)]
    assert not any(results[: len(value)]), "a truncated value was read"


@st.composite
def damaged_records(draw: st.DrawFn) -> list[SimpleRecord]:
    record_type, value, _ = draw(group_values())
    key = encode_key(record_type, draw(message_values(KEY_SCHEMAS[record_type], 0)))
    bad = _damaged(value)
    picks = draw(st.lists(st.integers(0, len(bad) - 1), min_size=1, max_size=12))
    return [SimpleRecord(key, value, 5), *(SimpleRecord(key, bad[i], 5) for i in picks)]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(damaged_records(), min_size=1, max_size=4))
def test_damaged_values_decode_to_the_references_records(groups: list[list[SimpleRecord]]) -> None:
    """Through the decode loop: the DecodedRecords (errors worded by the reference, early-access layouts
    told apart) are the reference's, whether the key was cached or not."""
    data = b"".join(build_batch(records, base_offset=100 * i) for i, records in enumerate(groups))
    with fast.forced(True):
        reference = [r for _, rs in decoded_batches(iter_batches(data)) for r in rs]
    for _ in range(2):  # the second time every key is in the cache
        with fast.forced(False):
            compiled = [r for _, rs in decoded_batches(iter_batches(data)) for r in rs]
        assert compiled == reference
        for got, want in zip(compiled, reference, strict=True):
            assert_identical(got.value, want.value)
            assert (got.error, got.kafka_text) == (want.error, want.kafka_text)


def test_a_compact_string_longer_than_kafka_allows_is_left_to_the_reference() -> None:
    value = encode_value(5, 0, {"memberId": "m", "instanceId": "x", "clientId": "c", "clientHost": "h"})
    assert value[2:4] == b"\x02x"  # instanceId first: compact length 1 + 1, then "x"
    for size in (32767, 32768):
        length = size + 1
        long = value[:2] + bytes([length & 0x7F | 0x80, length >> 7 & 0x7F | 0x80, length >> 14]) + b"a" * size
        long += value[4:]
        reference = _reference(5, long)
        if size == 32767:
            assert assert_compiled_matches(5, long)
        else:
            assert reference[1].endswith(f"string field instanceId had invalid length {size}.")
            assert _native().decode_value(5, long) is None


# --- the fast path is taken ------------------------------------------------------------------------


def test_the_decode_loop_decodes_group_values_without_the_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    """Once a key is cached, a group record's value never reaches the reference's decode_value: with it
    broken, the compiled loop still gives every value, identical to the reference's."""
    data = mixed_dump(3000, seed=11)
    with fast.forced(True):
        reference = [r for _, rs in decoded_batches(iter_batches(data)) for r in rs]
    groups = [r for r in reference if r.key is not None and r.key.type not in SKIPPED_TYPES and r.value is not None]
    assert groups, "the synthetic dump holds group records"
    native = _native()
    batches = [(b, [r for r in b.records if r.key and r.key[:2] not in (b"\0\0", b"\0\1")])
               for b in iter_batches(data) if not b.is_control]
    for batch, records in batches:  # the keys into the reference's cache
        native.decode(batch, records)

    def broken(*_: Any) -> Any:
        raise AssertionError("the reference decoded a value the compiled loop should have")

    monkeypatch.setattr(decode_module, "decode_value", broken)
    compiled = [r for batch, records in batches for r in native.decode(batch, records)]
    want = [r for r in reference if r.key is not None and r.key.type not in SKIPPED_TYPES]
    assert len(compiled) == len(want)
    for got, ref in zip(compiled, want, strict=True):
        assert_identical(got.value, ref.value)
        assert got.error is None
