"""Write the message classes in `groupctl/protocol/data/` from the schemas.

Why generated source files rather than classes built at import: a type checker and a reader both
see `JoinGroupRequestData.member_id: str` in a file. The files are committed and a test regenerates
them and compares (`python -m groupctl.protocol.datagen` rewrites them after a schema change).

One class per message (`JoinGroupRequestData`, Kafka's name), per record key and value
(`GroupMetadataValue`), and per nested struct (named by its schema type, prefixed by its parent's
name only where two structs in one module share a type name). Every version lives in one class:
a field absent at some version still has its attribute, at its default, as in Kafka's classes.
"""

from __future__ import annotations

import argparse
import json
import keyword
import re
import sys
import uuid
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import NamedTuple

from groupctl.protocol.schema import FIXED_TYPES, Field, Message, default_is_null, default_value

_PY_TYPES = {
    "bool": "bool",
    "int8": "int",
    "int16": "int",
    "uint16": "int",
    "int32": "int",
    "uint32": "int",
    "int64": "int",
    "float64": "float",
    "uuid": "uuid.UUID",
    "string": "str",
    "bytes": "bytes",
    "records": "bytes",
}
_LINE = 120  # the project's line length
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def attribute_name(field_name: str) -> str:
    """`GroupInstanceId` -> `group_instance_id` (a Python keyword gets a trailing underscore)."""
    name = _CAMEL.sub("_", field_name).lower()
    return name + "_" if keyword.iskeyword(name) else name


class DataModule(NamedTuple):
    """One generated file: its module name under `groupctl.protocol.data`, what it holds, its schemas."""

    name: str
    doc: str
    schemas: tuple[Message, ...]
    suffix: str  # "Data" for API messages (Kafka's JoinGroupRequestData), "" for records
    source: str = ""  # the `groupctl.protocol` module the schemas are in; "" for `messages.<name>`


def modules() -> list[DataModule]:
    """Every generated module, from the schema tables."""
    from groupctl.protocol.messages import API_SCHEMAS
    from groupctl.protocol.record_schemas import KEY_SCHEMAS, VALUE_SCHEMAS
    from groupctl.protocol.share_state_schemas import SHARE_STATE_KEY_SCHEMAS, SHARE_STATE_VALUE_SCHEMAS

    by_module: dict[str, list[Message]] = {}
    for request, response in API_SCHEMAS.values():
        for msg in (request, response):
            by_module.setdefault(_defining_module(msg), []).append(msg)
    out = [
        DataModule(name, f"The {name} API messages", tuple(msgs), "Data")
        for name, msgs in sorted(by_module.items())
    ]
    records = tuple(KEY_SCHEMAS[t] for t in sorted(KEY_SCHEMAS))
    records += tuple(VALUE_SCHEMAS[t] for t in sorted(VALUE_SCHEMAS))
    out.append(DataModule("records", "The `__consumer_offsets` record keys and values", records, "", "record_schemas"))
    share = tuple(SHARE_STATE_KEY_SCHEMAS[t] for t in sorted(SHARE_STATE_KEY_SCHEMAS))
    share += tuple(SHARE_STATE_VALUE_SCHEMAS[t] for t in sorted(SHARE_STATE_VALUE_SCHEMAS))
    out.append(DataModule("share_state_records", "The `__share_group_state` record keys and values", share, "",
                          "share_state_schemas"))
    return out


def _defining_module(msg: Message) -> str:
    """The `groupctl.protocol.messages` module a schema is defined in (its last name part)."""
    from groupctl.protocol import messages

    for name in messages.__dict__:
        module = getattr(messages, name)
        if getattr(module, "__name__", "").startswith("groupctl.protocol.messages.") and any(
            value is msg for value in vars(module).values()
        ):
            return str(module.__name__).rsplit(".", 1)[1]
    raise ValueError(f"{msg.name}: not defined in a groupctl.protocol.messages module")


class _Class(NamedTuple):
    name: str
    doc: str
    fields: tuple[Field, ...]
    nested: dict[str, str]  # field name -> class name
    schema_name: str


def _collect(module: DataModule) -> list[_Class]:
    """The classes of a module, nested structs before the classes that use them."""
    planned: list[_Class] = []
    taken: dict[str, tuple[Field, ...]] = {}

    def struct_name(parent: str, f: Field) -> str:
        base = f.element_type if f.is_array else f.type
        if base not in taken or taken[base] == f.fields:
            return base
        return parent.removesuffix(module.suffix) + base

    def visit(name: str, path: str, doc: str, fields: Sequence[Field], schema_name: str) -> None:
        nested: dict[str, str] = {}
        for f in fields:
            if f.fields:
                sub = struct_name(name, f)
                nested[f.name] = sub
                if sub not in taken:
                    taken[sub] = f.fields
                    sub_path = f"{path}.{f.name}{'[]' if f.is_array else ''}"
                    what = "An entry of" if f.is_array else "The struct"
                    visit(sub, sub_path, f"{what} {sub_path}.", f.fields, "")
        planned.append(_Class(name, doc, tuple(fields), nested, schema_name))

    for msg in module.schemas:
        name = msg.name + module.suffix
        if name in taken:
            raise ValueError(f"{module.name}: two classes named {name}")
        taken[name] = msg.fields
        visit(name, msg.name, f"{msg.name}, versions {msg.valid_versions}.", msg.fields, msg.name)
    return planned


def _annotation(f: Field, nested: dict[str, str]) -> str:
    if f.fields:
        inner = nested[f.name]
        text = f"list[{inner}]" if f.is_array else inner
    elif f.is_array:
        text = f"list[{_PY_TYPES[f.element_type]}]"
    else:
        text = _PY_TYPES[f.type]
    nullable = not f.nullable_versions.empty or f.type == "records" or (
        default_is_null(f) and f.type not in FIXED_TYPES
    )
    return f"{text} | None" if nullable else text


def _default_source(f: Field, nested: dict[str, str]) -> tuple[str, str | None]:
    """(parameter default, the expression a fresh default needs or None)."""
    high = f.versions.high if not f.versions.empty else 0
    value = default_value(f, high)
    if value is None:
        return "None", None
    if f.is_array:
        return "UNSET", "[]"
    if f.fields:
        return "UNSET", f"{nested[f.name]}()"
    if isinstance(value, uuid.UUID):
        return ("ZERO_UUID" if value.int == 0 else f"uuid.UUID({_literal(str(value))})"), None
    return _literal(value), None


def _literal(value: object) -> str:
    """A Python literal in the project's style (double quotes, as ruff format writes them)."""
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, bytes):
        return "b" + json.dumps(value.decode("ascii"))
    return repr(value)


def _class_source(cls: _Class) -> list[str]:
    attrs = [attribute_name(f.name) for f in cls.fields]
    lines = [f"class {cls.name}(Data):", f'    """{cls.doc}"""', ""]
    slots = [f'"{a}"' for a in sorted(attrs)]
    one_line = f"    __slots__ = ({', '.join(slots)}{',' if len(slots) == 1 else ''})"
    if len(one_line) <= _LINE:
        lines.append(one_line)
    else:
        lines += ["    __slots__ = (", *(f"        {s}," for s in slots), "    )"]
    table = []
    for f, attr in zip(cls.fields, attrs, strict=True):
        parts = (f'"{attr}"', f'"{f.json_name}"', cls.nested.get(f.name, "None"))
        line = f"        ({', '.join(parts)}),"
        table += [line] if len(line) <= _LINE else ["        (", *(f"            {p}," for p in parts), "        ),"]
    if table:
        lines.append("    _FIELDS: ClassVar[FieldTable] = (")
        lines.extend(table)
        lines.append("    )")
    if cls.schema_name:
        lines.append(f'    SCHEMA_NAME: ClassVar[str] = "{cls.schema_name}"')
    lines.append("")
    for f, attr in zip(cls.fields, attrs, strict=True):
        lines.append(f"    {attr}: {_annotation(f, cls.nested)}")
    if cls.fields:
        lines.append("")
    lines.append("    def __init__(")
    lines.append("        self,")
    lines.append("        *,")
    body = []
    for f, attr in zip(cls.fields, attrs, strict=True):
        default, fresh = _default_source(f, cls.nested)
        lines.append(f"        {attr}: {_annotation(f, cls.nested)} = {default},")
        if fresh is None:
            body.append(f"        self.{attr} = {attr}")
        else:
            line = f"        self.{attr} = {fresh} if {attr} is UNSET else {attr}"
            if len(line) > _LINE:
                line = f"        self.{attr} = (\n            {fresh} if {attr} is UNSET else {attr}\n        )"
            body.append(line)
    lines.append("        unknown_tagged_fields: TaggedFields = None,")
    lines.append("    ) -> None:")
    lines.extend(body)
    lines.append("        self.unknown_tagged_fields = unknown_tagged_fields")
    return lines


def module_source(module: DataModule) -> str:
    """The text of one generated module."""
    classes = _collect(module)
    source_module = module.source or f"messages.{module.name}"
    text = [
        f'"""{module.doc}, as classes: generated from `groupctl.protocol.{source_module}`.',
        "",
        "Do not edit: `python -m groupctl.protocol.datagen` writes this file.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
    ]
    body = [line for cls in classes for line in ("", "", *_class_source(cls))]
    uses_uuid = any("uuid." in line for line in body)
    uses_zero = any("ZERO_UUID" in line for line in body)
    uses_unset = any("UNSET" in line for line in body)
    if uses_uuid:
        text.append("import uuid")
    text.append("from typing import ClassVar")
    text.append("")
    names = (["UNSET"] if uses_unset else []) + ["Data", "FieldTable", "TaggedFields"]
    text.append(f"from groupctl.protocol.data.base import {', '.join(names)}")
    if uses_zero:
        text.append("from groupctl.protocol.primitives import ZERO_UUID")
    text += body
    top = [cls.name for cls in classes if cls.schema_name]
    text += ["", "", "CLASSES: dict[str, type[Data]] = {"]
    text += [f'    "{cls.schema_name}": {cls.name},' for cls in classes if cls.schema_name]
    text += ["}", f'"""Schema name -> class, for the {len(top)} top-level classes."""', ""]
    return "\n".join(text)


def data_dir() -> Path:
    return Path(__file__).resolve().parent / "data"


def stale(mods: Iterable[DataModule] | None = None) -> list[str]:
    """The generated files that differ from what the schemas give (empty when all are current)."""
    out = []
    for module in mods if mods is not None else modules():
        path = data_dir() / f"{module.name}.py"
        if not path.exists() or path.read_text(encoding="utf-8") != module_source(module):
            out.append(path.name)
    return out


def write_all() -> list[str]:
    """Rewrite every generated file; the names written."""
    written = []
    for module in modules():
        path = data_dir() / f"{module.name}.py"
        path.write_text(module_source(module), encoding="utf-8")
        written.append(path.name)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a generated file is out of date")
    args = parser.parse_args(argv)
    if args.check:
        names = stale()
        for name in names:
            print(f"groupctl/protocol/data/{name} is out of date: run python -m groupctl.protocol.datagen")
        return 1 if names else 0
    for name in write_all():
        print(f"wrote groupctl/protocol/data/{name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
