"""Wire protocol messages: every API and version round-trips, and the bytes equal kafka-python's.

kafka-python (a dev dependency) is the independent peer. It has two codecs: the JSON-driven
`ApiMessage` classes (`kafka.protocol.{admin,consumer,metadata,producer,sasl}`), which reach the
flexible versions, and the older hand-written `Struct` classes (`kafka.protocol.old`), whose layouts
were written without Kafka's JSON at all. The same field values, drawn by hypothesis from our
schemas, must encode to the same bytes in both, and kafka-python must read our bytes back to the same
bytes. Random values cannot reveal a wrong nullability or default, so the field facts are also
compared with kafka-python's copy of Kafka's JSON; the two APIs it lacks (68, 69) get known bytes.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import struct
import uuid
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from groupctl.errors import DecodeError
from groupctl.protocol.data.api_versions import ApiVersion, ApiVersionsResponseData
from groupctl.protocol.data.auth import SaslHandshakeRequestData
from groupctl.protocol.data.groups import JoinGroupRequestData, JoinGroupRequestProtocol
from groupctl.protocol.messages import API_NAMES, API_SCHEMAS, framing, headers
from groupctl.protocol.schema import FIXED_TYPES, UNKNOWN_TAGS, Field, Message, default_value
from tests.strategies import message_values

from ..conftest import kafka_python_classes

FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
PEER = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])

EXPECTED_VERSIONS = {
    0: ("3-13", "9+"),
    1: ("4-18", "12+"),
    2: ("1-11", "6+"),
    3: ("0-13", "9+"),
    8: ("2-10", "8+"),
    9: ("1-10", "6+"),
    10: ("0-6", "3+"),
    11: ("0-9", "6+"),
    12: ("0-4", "4+"),
    13: ("0-5", "4+"),
    14: ("0-5", "4+"),
    15: ("0-6", "5+"),
    16: ("0-5", "3+"),
    17: ("0-1", "none"),
    18: ("0-4", "3+"),
    19: ("2-7", "5+"),
    22: ("0-6", "2+"),
    32: ("1-4", "4+"),
    36: ("0-2", "2+"),
    37: ("0-3", "2+"),
    42: ("0-3", "2+"),
    44: ("0-1", "1+"),
    47: ("0", "none"),
    60: ("0-2", "0+"),
    68: ("0-1", "0+"),
    69: ("0-1", "0+"),
    76: ("1", "1+"),
    77: ("1", "1+"),
    90: ("0-1", "0+"),
    91: ("0", "0+"),
    92: ("0", "0+"),
}


def schema(api_key: int, kind: str) -> Message:
    return API_SCHEMAS[api_key][0 if kind == "request" else 1]


ALL_CASES = [
    pytest.param(key, version, kind, id=f"{API_NAMES[key]}{kind.title()}-v{version}")
    for key in sorted(API_SCHEMAS)
    for version in API_SCHEMAS[key][0].versions
    for kind in ("request", "response")
]


def test_registry_covers_every_api_at_trunk_versions() -> None:
    assert {k: (str(q.valid_versions), str(q.flexible_versions)) for k, (q, _) in API_SCHEMAS.items()} == (
        EXPECTED_VERSIONS
    )
    for key, (req, resp) in API_SCHEMAS.items():
        assert req.api_key == resp.api_key == key
        assert req.name == API_NAMES[key] + "Request" and resp.name == API_NAMES[key] + "Response"
    assert API_NAMES[68] == "ConsumerGroupHeartbeat" and API_NAMES[18] == "ApiVersions"


# --- round trips ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("api_key", "version", "kind"), ALL_CASES)
@FAST
@given(data=st.data())
def test_round_trip(api_key: int, version: int, kind: str, data: st.DataObject) -> None:
    msg = schema(api_key, kind)
    value = data.draw(message_values(msg, version, unknown_tags=True))
    raw = msg.encode(value, version)
    decoded, end = msg.decoder(version)(raw, 0)
    assert end == len(raw)
    assert decoded == value
    assert msg.encode(decoded, version) == raw


@pytest.mark.parametrize(("api_key", "version", "kind"), ALL_CASES[::7])
@FAST
@given(raw=st.binary(max_size=60))
def test_garbage_decodes_or_raises_decode_error(api_key: int, version: int, kind: str, raw: bytes) -> None:
    try:
        schema(api_key, kind).decoder(version)(raw, 0)
    except DecodeError as exc:
        assert exc.reason


def test_known_bytes_leave_group_v5_batch_with_reason() -> None:
    # the request an admin sends to remove one static member (KIP-345), checked by hand
    req = schema(13, "request")
    body = {"groupId": "g", "members": [{"memberId": "", "groupInstanceId": "i-1", "reason": None}]}
    raw = req.encode(body, 5)
    assert raw == bytes.fromhex("02 67 02 01 04 692d31 00 00 00")
    assert req.decode(raw, 5) == body


def test_fields_of_other_versions_are_refused_unless_ignorable() -> None:
    join = schema(11, "request")
    with pytest.raises(ValueError, match="groupInstanceId"):
        join.encode({"groupInstanceId": "static-1"}, 4)
    join.encode({"reason": "bye"}, 7)  # Reason is ignorable: dropped below v8, as Kafka does
    assert "reason" not in join.decode(join.encode({"reason": "bye"}, 7), 7)


# --- kafka-python: the JSON-driven ApiMessage codec -------------------------------------------------


KP_NEW = kafka_python_classes()


def _kp_new_cases() -> Iterator[Any]:
    for key in sorted(API_SCHEMAS):
        for kind in ("request", "response"):
            cls = KP_NEW.get(f"{API_NAMES[key]}{kind.title()}")
            if cls is None:
                continue
            for version in API_SCHEMAS[key][0].versions:
                if version <= cls.max_version:
                    yield pytest.param(key, version, kind, id=f"{API_NAMES[key]}{kind.title()}-v{version}")


KP_NEW_CASES = list(_kp_new_cases())


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _kp_field_for(by_snake: dict[str, Field], kp_name: str) -> Field:
    """kafka-python renames a few `*AuthorizedOperations` fields to `authorized_operations`."""
    for candidate in (kp_name, f"cluster_{kp_name}", f"topic_{kp_name}"):
        if candidate in by_snake:
            return by_snake[candidate]
    raise KeyError(kp_name)


def _to_kp_new(kp_cls: Any, fields: Sequence[Field], data: dict[str, Any], version: int) -> dict[str, Any]:
    """Our dict as keyword arguments of a kafka-python data class (nested classes are its attributes)."""
    from kafka.protocol.schemas.fields.codecs.types import BitField

    by_snake = {_snake(f.json_name): f for f in fields}
    out: dict[str, Any] = {}
    for kf in kp_cls._struct._fields:
        if not kf.for_version_q(version):
            continue
        f = _kp_field_for(by_snake, kf.name)
        value = data[f.json_name]
        if f.tagged_at(version, True) and value == default_value(f, version):
            continue  # not on the wire in either codec; kafka-python's struct defaults differ from ours
        if value is not None and (kf.is_struct() or kf.is_struct_array()):
            sub = getattr(kp_cls, kf.type_str)
            if kf.is_struct():
                value = sub(**_to_kp_new(sub, f.fields or (), value, version))
            else:
                value = [sub(**_to_kp_new(sub, f.fields or (), v, version)) for v in value]
        elif kf.type_str == "bitfield":
            value = BitField.from_32_bit_field(value & 0xFFFFFFFF)
        out[kf.name] = value
    return out


def _read_as_v0(api_key: int, kind: str, value: dict[str, Any]) -> bool:
    """kafka-python reads an ApiVersions error response as v0, the version a broker answers with."""
    return api_key == 18 and kind == "response" and value["errorCode"] != 0


def kp_new_encode(api_key: int, kind: str, version: int, data: dict[str, Any]) -> bytes:
    msg = schema(api_key, kind)
    cls = KP_NEW[msg.name]
    obj = cls[version](**_to_kp_new(cls, msg.fields, data, version))
    return bytes(obj.encode())


@pytest.mark.parametrize(("api_key", "version", "kind"), KP_NEW_CASES)
@PEER
@given(data=st.data())
def test_bytes_equal_kafka_python_api_message(api_key: int, version: int, kind: str, data: st.DataObject) -> None:
    msg = schema(api_key, kind)
    value = data.draw(message_values(msg, version))
    ours = msg.encode(value, version)
    assert kp_new_encode(api_key, kind, version, value) == ours
    # kafka-python reads our bytes back to the same message
    if not _read_as_v0(api_key, kind, value):
        assert bytes(KP_NEW[msg.name].decode(ours, version=version).encode()) == ours


def test_enough_kafka_python_comparisons() -> None:
    pairs = {(c.values[0], c.values[1]) for c in KP_NEW_CASES} | {(c.values[0], c.values[1]) for c in KP_OLD_CASES}
    assert len(pairs) >= 30
    assert len(KP_NEW_CASES) >= 290 and len(KP_OLD_CASES) >= 160


KP_PATCHED_DEFAULTS = {"ListOffsetsRequest.replicaId"}  # kafka-python defaults it to -1; Kafka's JSON does not


def _same_facts(kp_cls: Any, fields: Sequence[Field], versions: range, flexible: Any, where: str) -> list[str]:
    """Where our field facts differ from kafka-python's copy of Kafka's JSON, at the given versions."""
    by_snake = {_snake(f.json_name): f for f in fields}
    seen: set[str] = set()
    problems: list[str] = []
    for kf in kp_cls._struct._fields:
        f = _kp_field_for(by_snake, kf.name)
        seen.add(f.json_name)
        name = f"{where}.{f.json_name}"
        if bool(kf._ignorable) != f.ignorable:
            problems.append(f"{name}: ignorable")
        for v in versions:
            if kf.for_version_q(v) != f.present(v):
                problems.append(f"{name}: present at v{v}")
            elif f.present(v):
                if kf.nullable_for_version_q(v) != f.nullable_at(v):
                    problems.append(f"{name}: nullable at v{v}")
                tagged = f.tagged_at(v, v in flexible)
                if kf.tagged_field_q(v) != tagged or (tagged and kf.tag != f.tag):
                    problems.append(f"{name}: tag at v{v}")
                if kf._json["type"] == "bitfield" or name in KP_PATCHED_DEFAULTS:
                    continue  # kafka-python's json_patch changed these, not Kafka
                if kf._json["type"] != f.type:
                    problems.append(f"{name}: type {f.type}")
                if f.type in FIXED_TYPES and f.type != "uuid" and kf.default != default_value(f, v):
                    problems.append(f"{name}: default {default_value(f, v)!r} vs {kf.default!r}")
        if kf.is_struct() or kf.is_struct_array():
            problems += _same_facts(getattr(kp_cls, kf.type_str), f.fields or (), versions, flexible, name)
    for f in fields:
        if f.json_name not in seen and any(f.present(v) for v in versions):
            problems.append(f"{where}.{f.json_name}: not in kafka-python")
    return problems


def test_field_facts_equal_kafka_pythons_copy_of_the_json() -> None:
    # byte comparisons cannot see a nullability or default that random data never exercises
    problems: list[str] = []
    for pair in API_SCHEMAS.values():
        for msg in pair:
            cls = KP_NEW.get(msg.name)
            if cls is not None:
                versions = range(msg.valid_versions.low, min(msg.valid_versions.high, cls.max_version) + 1)
                problems += _same_facts(cls, msg.fields, versions, msg.flexible_versions, msg.name)
    assert problems == []


# --- kafka-python: the hand-written Struct codec ------------------------------------------------


def _kp_old_lists() -> dict[str, list[Any]]:
    pkg = importlib.import_module("kafka.protocol.old")
    found: dict[str, list[Any]] = {}
    for info in pkgutil.iter_modules(pkg.__path__):
        module = importlib.import_module(f"{pkg.__name__}.{info.name}")
        for name, obj in vars(module).items():
            if isinstance(obj, list) and obj and name.endswith(("Request", "Response")):
                found[name] = obj
    return found


KP_OLD = _kp_old_lists()


def _kp_old_cases() -> Iterator[Any]:
    for key in sorted(API_SCHEMAS):
        for kind in ("request", "response"):
            classes = KP_OLD.get(f"{API_NAMES[key]}{kind.title()}", [])
            for version in API_SCHEMAS[key][0].versions:
                if version < len(classes):
                    yield pytest.param(key, version, kind, id=f"{API_NAMES[key]}{kind.title()}-v{version}")


KP_OLD_CASES = list(_kp_old_cases())


def _untagged_present(fields: Sequence[Field], version: int) -> list[Field]:
    return [f for f in fields if f.present(version) and not f.tagged_at(version, True)]


def _to_kp_old(kp_schema: Any, fields: Sequence[Field], data: dict[str, Any], version: int) -> tuple[Any, ...]:
    """Our dict as the positional tuple a `Struct` schema encodes; tagged fields must be at default.

    The old layouts sometimes group plain fields in a nested schema (CreatePartitions' count and
    assignments) or write a one-field struct array as an array of its field (Metadata's topic names):
    the same bytes, a different shape.
    """
    from kafka.protocol.old.types import Schema, TaggedFields

    present = _untagged_present(fields, version)
    kinds = list(kp_schema.fields)
    tags = bool(kinds) and kinds[-1] is TaggedFields
    if tags:
        kinds.pop()
    out: list[Any] = []
    i = 0
    for kind in kinds:
        if isinstance(kind, Schema) and not present[i].is_struct:
            n = len(kind.fields)
            out.append(_to_kp_old(kind, present[i : i + n], data, version))
            i += n
            continue
        f = present[i]
        i += 1
        out.append(_kp_old_value(kind, f, data[f.json_name], version))
    assert i == len(present), f"{kp_schema.names} vs {[f.json_name for f in present]}"
    if tags:
        out.append({})
    return tuple(out)


def _kp_old_value(kind: Any, f: Field, value: Any, version: int) -> Any:
    from kafka.protocol.old.types import Array, BitField, Schema

    if value is None:
        return None
    if isinstance(kind, Array) and isinstance(kind.array_of, Schema):
        return [_to_kp_old(kind.array_of, f.fields or (), v, version) for v in value]
    if isinstance(kind, Array) and f.is_struct_array:
        (sole,) = _untagged_present(f.fields or (), version)
        return [_kp_old_value(kind.array_of, sole, v[sole.json_name], version) for v in value]
    if isinstance(kind, Schema):
        return _to_kp_old(kind, f.fields or (), value, version)
    if kind is BitField:
        return BitField.from_32_bit_field(value & 0xFFFFFFFF)
    return value


def _untagged(fields: Sequence[Field], data: dict[str, Any], version: int) -> dict[str, Any]:
    """The same data with every tagged field at its default (the old codec only knows raw tags)."""
    out = dict(data)
    for f in fields:
        if f.json_name not in out or out[f.json_name] is None:
            continue
        if f.tagged_at(version, True):
            out[f.json_name] = default_value(f, version)
        elif f.is_struct:
            out[f.json_name] = _untagged(f.fields or (), out[f.json_name], version)
        elif f.is_struct_array:
            out[f.json_name] = [_untagged(f.fields or (), v, version) for v in out[f.json_name]]
    return out


@pytest.mark.parametrize(("api_key", "version", "kind"), KP_OLD_CASES)
@PEER
@given(data=st.data())
def test_bytes_equal_kafka_python_struct(api_key: int, version: int, kind: str, data: st.DataObject) -> None:
    msg = schema(api_key, kind)
    value = _untagged(msg.fields, data.draw(message_values(msg, version)), version)
    ours = msg.encode(value, version)
    cls = KP_OLD[msg.name][version]
    theirs = cls.SCHEMA.encode(_to_kp_old(cls.SCHEMA, msg.fields, value, version))
    assert theirs == ours
    if not _read_as_v0(api_key, kind, value):
        assert cls.decode(ours).encode() == ours


# --- headers and framing -------------------------------------------------------------------------

def as_framed(api_key: int, message: Message, body: dict) -> Any:
    """A drawn body as framing carries it: the API's generated class."""
    return message.data_class.from_dict(body)


FRAMED_REQUESTS = [(11, 5), (11, 9), (13, 3), (13, 5), (18, 0), (18, 3), (10, 4), (16, 5), (15, 6), (9, 8)]


@pytest.mark.parametrize(("api_key", "version"), FRAMED_REQUESTS)
@settings(max_examples=10, deadline=None)
@given(data=st.data(), correlation_id=st.integers(-(2**31), 2**31 - 1), client_id=st.none() | st.text(max_size=8))
def test_framed_kafka_python_request_decodes(
    api_key: int, version: int, data: st.DataObject, correlation_id: int, client_id: str | None
) -> None:
    req = schema(api_key, "request")
    body = data.draw(message_values(req, version))
    cls = KP_NEW[req.name]
    obj = cls[version](**_to_kp_new(cls, req.fields, body, version))
    obj.with_header(correlation_id=correlation_id, client_id=client_id)
    wire = bytes(obj.encode(header=True, framed=True))

    size = framing.frame_size(wire[:4], max_size=1 << 20)
    assert size == len(wire) - 4
    decoded = framing.decode_request(wire[4:])
    assert (decoded.api_key, decoded.api_version, decoded.correlation_id) == (api_key, version, correlation_id)
    assert decoded.client_id == client_id
    assert decoded.body == as_framed(api_key, req, body)
    assert framing.encode_request(api_key, version, correlation_id, client_id, as_framed(api_key, req, body)) == wire


@pytest.mark.parametrize(("api_key", "version"), [(11, 5), (11, 7), (12, 4), (18, 0), (18, 3), (16, 3), (60, 2)])
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_framed_response_matches_kafka_python(api_key: int, version: int, data: st.DataObject) -> None:
    resp = schema(api_key, "response")
    body = data.draw(message_values(resp, version))
    wire = framing.encode_response(api_key, version, 99, as_framed(api_key, resp, body))
    tagged_header = version in resp.flexible_versions and api_key != 18  # ApiVersions: header v0 always
    head = struct.pack(">i", 99) + (b"\x00" if tagged_header else b"")
    assert wire[4 : 4 + len(head)] == head
    assert framing.peek_correlation_id(wire[4:]) == 99
    decoded = framing.decode_response(wire[4:], api_key, version)
    assert (decoded.correlation_id, decoded.api_version, decoded.body) == (99, version, as_framed(api_key, resp, body))
    cls = KP_NEW[resp.name]
    obj = cls[version](**_to_kp_new(cls, resp.fields, body, version))
    obj.with_header(correlation_id=99)
    assert bytes(obj.encode(header=True, framed=True)) == wire


def test_old_kafka_python_header_and_frame() -> None:
    # the hand-written header of kafka-python's old client, in front of a JoinGroup v5 body
    from kafka.protocol.old.api import RequestHeader
    from kafka.protocol.old.group import JoinGroupRequest

    req = JoinGroupRequest[5]("g", 10_000, 30_000, "", "i-1", "consumer", [("range", b"\x00\x01")])
    payload = RequestHeader(req.API_KEY, req.API_VERSION, 3, "old").encode() + req.encode()
    decoded = framing.decode_request(payload)
    assert (decoded.api_key, decoded.api_version, decoded.correlation_id, decoded.client_id) == (11, 5, 3, "old")
    assert decoded.body.group_instance_id == "i-1" and decoded.body.protocols == [
        JoinGroupRequestProtocol(name="range", metadata=b"\x00\x01")
    ]
    assert framing.encode_request(11, 5, 3, "old", decoded.body) == framing.frame(payload)


def test_header_versions() -> None:
    join_req, join_resp = API_SCHEMAS[11]
    assert [headers.request_header_version(join_req, v) for v in (5, 6)] == [1, 2]
    assert [headers.response_header_version(join_resp, v) for v in (5, 6)] == [0, 1]
    api_req, api_resp = API_SCHEMAS[18]
    assert headers.request_header_version(api_req, 3) == 2
    assert headers.response_header_version(api_resp, 3) == 0  # ApiVersions: always v0
    sasl_req, _ = API_SCHEMAS[17]
    assert headers.request_header_version(sasl_req, 1) == 1


def test_request_header_v2_keeps_the_int16_client_id_and_unknown_tags() -> None:
    header = {"requestApiKey": 18, "requestApiVersion": 3, "correlationId": 1, "clientId": "c"}
    raw = headers.encode_request_header({**header, UNKNOWN_TAGS: [(5, b"\xab")]}, 2)
    assert raw == bytes.fromhex("0012 0003 00000001 0001 63 01 05 01 ab")
    decoded, end = headers.decode_request_header(raw, 0, 2)
    assert end == len(raw) and decoded == {**header, UNKNOWN_TAGS: [(5, b"\xab")]}
    assert headers.decode_request_header(raw[:-4] + b"\x00", 0, 2)[0] == header


def test_unsupported_requests_keep_their_header() -> None:
    unknown = struct.pack(">hhi", 9999, 0, 77) + b"\xff\xff"
    with pytest.raises(framing.UnsupportedRequest) as err:
        framing.decode_request(unknown)
    assert (err.value.api_key, err.value.correlation_id) == (9999, 77)
    too_new = struct.pack(">hhi", 18, 99, 5) + b"\xff\xff"
    with pytest.raises(framing.UnsupportedRequest, match="ApiVersions version 99 is not supported") as err:
        framing.decode_request(too_new)
    assert err.value.correlation_id == 5
    with pytest.raises(framing.UnsupportedRequest):
        framing.encode_request(17, 2, 1, None, SaslHandshakeRequestData())


@pytest.mark.parametrize("cut", [0, 3, 7, 9, 12])
def test_truncated_requests_raise_decode_error(cut: int) -> None:
    wire = framing.encode_request(11, 9, 1, "client", JoinGroupRequestData(
        group_id="orders", protocols=[JoinGroupRequestProtocol(name="range")]))
    with pytest.raises(DecodeError):
        framing.decode_request(wire[4 : 4 + cut])


@pytest.mark.parametrize("prefix", [b"\xff\xff\xff\xff", b"\x7f\xff\xff\xff", b"\x00\x00"])
def test_bad_frame_sizes(prefix: bytes) -> None:
    with pytest.raises(DecodeError):
        framing.frame_size(prefix, max_size=100 * 1024 * 1024)


def test_known_bytes_consumer_group_heartbeat_v1_join() -> None:
    # a KIP-848 member joining with its own member id; no kafka-python peer has this API, so by hand
    heartbeat = schema(68, "request")
    topic = uuid.UUID("6ba7b810-9dad-11d1-80b4-00c04fd430c8")
    body = {
        "groupId": "g",
        "memberId": "m",
        "memberEpoch": 0,
        "subscribedTopicNames": ["t"],
        "topicPartitions": [{"topicId": topic, "partitions": [0]}],
    }
    raw = heartbeat.encode(body, 1)
    expected = "02 67 02 6d 00000000 00 00 ffffffff 02 02 74 00 00 02" + topic.hex + "02 00000000 00 00"
    assert raw == bytes.fromhex(expected)
    assert heartbeat.decode(raw, 1) == {
        **body,
        "instanceId": None,
        "rackId": None,
        "rebalanceTimeoutMs": -1,
        "subscribedTopicRegex": None,
        "serverAssignor": None,
    }


@pytest.mark.parametrize("version", [0, 1])
def test_known_bytes_consumer_group_describe_member_type(version: int) -> None:
    # v1 adds MemberType as the member's last field (KIP-1099); by hand, as for the heartbeat
    describe = schema(69, "response")
    member = {"memberId": "m", "instanceId": "i", "memberEpoch": 3, "clientId": "c", "clientHost": "h"}
    group = {"groupId": "g", "groupState": "Stable", "groupEpoch": 3, "assignmentEpoch": 3, "assignorName": "uniform"}
    body = {"groups": [{**group, "members": [{**member, "subscribedTopicNames": ["t"], "memberType": 1}]}]}
    expected = (
        "00000000 02 0000 00 02 67 07 537461626c65 00000003 00000003 08 756e69666f726d"
        "02 02 6d 02 69 00 00000003 02 63 02 68 02 02 74 00 01 00 01 00" + ("01" if version else "") + "00"
        "80000000 00 00"
    )
    assert describe.encode(body, version) == bytes.fromhex(expected)


def test_api_versions_error_response_is_read_at_v0() -> None:
    # a broker that does not know v4 answers with a v0 body: UNSUPPORTED_VERSION and its range
    v0 = ApiVersionsResponseData(error_code=35, api_keys=[ApiVersion(api_key=18, min_version=0, max_version=2)])
    wire = framing.encode_response(18, 0, 1, v0)
    decoded = framing.decode_response(wire[4:], 18, 4)
    assert (decoded.api_version, decoded.body) == (0, v0)
