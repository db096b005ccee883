"""The generated message classes: current with the schemas, and equal to the dict codecs byte for byte."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from groupctl.protocol import datagen
from groupctl.protocol.data import class_for
from groupctl.protocol.data.base import UNKNOWN_TAGS, Data
from groupctl.protocol.messages import API_SCHEMAS
from groupctl.protocol.record_schemas import KEY_SCHEMAS, VALUE_SCHEMAS
from groupctl.protocol.schema import Message
from tests.strategies import message_values

SCHEMAS: list[Message] = [m for pair in API_SCHEMAS.values() for m in pair]
SCHEMAS += list(KEY_SCHEMAS.values()) + list(VALUE_SCHEMAS.values())
CASES = [(m, v) for m in SCHEMAS for v in m.versions]


def test_generated_files_are_current() -> None:
    assert datagen.stale() == []


def test_check_reports_a_stale_file(tmp_path, monkeypatch) -> None:
    module = datagen.modules()[0]
    (tmp_path / f"{module.name}.py").write_text("# edited by hand\n", encoding="utf-8")
    monkeypatch.setattr(datagen, "data_dir", lambda: tmp_path)
    assert module.name + ".py" in datagen.stale([module])


@pytest.mark.parametrize(
    ("field_name", "attribute"),
    [("GroupInstanceId", "group_instance_id"), ("ZkMigrationReady", "zk_migration_ready"), ("group", "group"),
     ("ApiKey", "api_key"), ("AssignmentEpochs", "assignment_epochs")],
)
def test_attribute_names(field_name: str, attribute: str) -> None:
    assert datagen.attribute_name(field_name) == attribute


def test_every_schema_has_one_class() -> None:
    names = [class_for(m.name).__name__ for m in SCHEMAS]
    assert len(set(names)) == len(names)
    assert class_for("JoinGroupRequest").__name__ == "JoinGroupRequestData"
    assert class_for("GroupMetadataValue").__name__ == "GroupMetadataValue"


def test_a_new_instance_holds_kafkas_defaults() -> None:
    request = class_for("JoinGroupRequest")()
    assert (request.rebalance_timeout_ms, request.group_instance_id, request.protocols) == (-1, None, [])
    other = class_for("JoinGroupRequest")()
    request.protocols.append(class_for("JoinGroupRequest").nested("protocols")())
    assert other.protocols == []  # a fresh list each, never a shared default


def _present(data: dict, msg_fields, version: int) -> dict:
    """`data` (a to_dict) cut to the fields present at `version`, as a dict decode returns them."""
    out = {}
    for f in msg_fields:
        if not f.present(version):
            continue
        value = data[f.json_name]
        if f.fields and value is not None:
            cut = [_present(v, f.fields, version) for v in value] if f.is_array else _present(value, f.fields, version)
            value = cut
        out[f.json_name] = value
    if UNKNOWN_TAGS in data:
        out[UNKNOWN_TAGS] = data[UNKNOWN_TAGS]
    return out


@settings(max_examples=400)
@given(st.sampled_from(CASES).flatmap(lambda c: st.tuples(st.just(c), message_values(c[0], c[1], unknown_tags=True))))
def test_the_typed_codecs_agree_with_the_dict_codecs(case) -> None:
    (msg, version), data = case
    raw = msg.encode(data, version)
    typed = msg.read(raw, version)
    assert isinstance(typed, msg.data_class)
    assert msg.write(typed, version) == raw
    assert _present(typed.to_dict(), msg.fields, version) == msg.decode(raw, version)
    assert msg.write(msg.data_class.from_dict(data), version) == raw


def test_a_field_the_version_cannot_carry_is_refused() -> None:
    msg = API_SCHEMAS[11][0]
    request = msg.data_class(group_instance_id="instance-1")
    with pytest.raises(ValueError, match="non-default groupInstanceId at version 4"):
        msg.write(request, 4)
    assert msg.read(msg.write(request, 5), 5).group_instance_id == "instance-1"


def test_equality_is_by_type_and_fields() -> None:
    cls = class_for("HeartbeatRequest")
    assert cls(group_id="g") == cls(group_id="g")
    assert cls(group_id="g") != cls(group_id="h")
    assert cls(group_id="g") != class_for("HeartbeatResponse")()
    assert cls(group_id="g") != {"groupId": "g"}
    assert isinstance(cls(), Data) and "group_id='g'" in repr(cls(group_id="g"))
