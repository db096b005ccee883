"""A bounded differential fuzz of the compiled paths: mutated copies of the real broker segments in ../shared
(bit flips, truncations, header and record fields at their extremes, with the CRC recomputed so the mutation
gets past it) through `dump decode`, `dump groups` and `dump audit`, each run on the compiled loop and on the
pure-Python reference, must print the same and exit the same, and never with an internal error."""

from __future__ import annotations

import random
import struct
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from crc32c import crc32c

from groupctl.log import fast
from groupctl.log.compression import CompressionError, compress, decompress
from groupctl.log.writer import segment_file_name
from groupctl.protocol.primitives import write_varlong
from tests.conftest import KAFKA_40_SEGMENTS, Result
from tests.log.conftest import NOT_BUILT

pytestmark = pytest.mark.skipif(not fast.available(), reason=NOT_BUILT)

SEED = 27
INPUTS = 300
MAX_SEGMENT = 12 * 1024  # the small segments: every batch kind they hold, at a bounded cost per input
INT32 = (-(1 << 31), (1 << 31) - 1)
INT64 = (-(1 << 63), (1 << 63) - 1)
COMMANDS = (("decode",), ("decode", "--format", "jsonl"), ("groups",), ("audit", "--fail-on", "none"))

# The v2 header's fields: (byte offset, struct format, extremes besides the batch's own value +- 1).
_V2_FIELDS = {
    "baseOffset": (0, ">q", (*INT64, -1, 0)),
    "length": (8, ">i", (*INT32, -1, 0, 48, 49)),
    "partitionLeaderEpoch": (12, ">i", (*INT32, -1)),
    "attributes": (21, ">h", (0, 1, 2, 3, 4, 5, 6, 7, 0x08, 0x10, 0x20, 0x30, 0x40, 0x7F, -1)),
    "lastOffsetDelta": (23, ">i", (*INT32, -1, 0)),
    "baseTimestamp": (27, ">q", (*INT64, -1, 0)),
    "maxTimestamp": (35, ">q", (*INT64, -1, 0)),
    "producerId": (43, ">q", (*INT64, -1, 0)),
    "producerEpoch": (51, ">h", (-(1 << 15), (1 << 15) - 1, -1, 0)),
    "baseSequence": (53, ">i", (*INT32, -1, 0)),
    "recordCount": (57, ">i", (*INT32, -1, 0, 1, 1 << 17, (1 << 17) + 1)),
}
_VARINT_EXTREMES = (-1, 0, 1, 5, *INT32, 1 << 40, *INT64)


def _batches(data: bytes) -> list[tuple[int, int, int]]:
    """(position, end, magic) of each whole entry, by the length fields alone."""
    out, pos = [], 0
    while len(data) - pos >= 17:
        length = struct.unpack_from(">i", data, pos + 8)[0]
        end = pos + 12 + length
        if length < 14 or end > len(data):
            break
        out.append((pos, end, data[pos + 16]))
        pos = end
    return out


def _fix_crc(data: bytearray, pos: int, end: int, magic: int) -> None:
    """Recompute the entry's CRC (CRC-32C from the attributes for v2, CRC-32 from the magic for v0/v1)."""
    if magic == 2 and end - pos >= 61:
        struct.pack_into(">I", data, pos + 17, crc32c(bytes(data[pos + 21 : end])))
    elif magic in (0, 1):
        struct.pack_into(">I", data, pos + 12, zlib.crc32(bytes(data[pos + 16 : end])))


def _record_varints(payload: bytes) -> list[tuple[int, int]]:
    """(start, end) of every varint of every record in a v2 record payload (sizes, deltas, lengths, counts)."""
    out, p = [], 0

    def varint() -> int:
        nonlocal p
        start, raw, shift = p, 0, 0
        while True:
            b = payload[p]
            p += 1
            raw |= (b & 0x7F) << shift
            shift += 7
            if b < 0x80 or shift > 63:
                break
        out.append((start, p))
        return (raw >> 1) ^ -(raw & 1)

    try:
        while p < len(payload):
            size = varint()
            rend = p + size
            p += 1  # attributes
            varint()  # timestamp delta
            varint()  # offset delta
            for _ in range(2):  # key, value
                n = varint()
                p += max(n, 0)
            for _ in range(varint()):  # headers
                p += max(varint(), 0)
                p += max(varint(), 0)
            p = rend
    except IndexError:
        pass
    return out


def _mutate_records(data: bytearray, pos: int, end: int, rng: random.Random) -> bytes:
    """One varint of one record of a v2 batch set to an extreme (inside its compression, recompressed), the
    batch's length and CRC made to fit; the input unchanged when the batch does not decompress."""
    codec = struct.unpack_from(">h", data, pos + 21)[0] & 0x07
    payload = bytes(data[pos + 61 : end])
    try:
        records = decompress(codec, payload) if codec else payload
    except (CompressionError, ValueError):
        return bytes(data)
    spots = _record_varints(records)
    if not spots:
        return bytes(data)
    start, stop = rng.choice(spots)
    records = records[:start] + write_varlong(rng.choice(_VARINT_EXTREMES)) + records[stop:]
    payload = compress(codec, records) if codec else records
    batch = bytearray(data[pos : pos + 61]) + payload
    struct.pack_into(">i", batch, 8, len(batch) - 12)
    _fix_crc(batch, 0, len(batch), 2)
    return bytes(data[:pos]) + bytes(batch) + bytes(data[end:])


def mutate(data: bytes, rng: random.Random) -> tuple[str, bytes]:
    """One mutation of a segment, named for the failure message."""
    out = bytearray(data)
    entries = _batches(data)
    kind = rng.choice(("flip", "truncate", "header", "records", "records")) if entries else "truncate"
    if kind == "truncate":
        cut = rng.randrange(len(data))
        return f"truncated to {cut} bytes", data[:cut]
    pos, end, magic = rng.choice(entries)
    if kind == "records" and magic != 2:
        kind = "flip"
    if kind == "flip":
        flips = [rng.randrange(pos, end) for _ in range(rng.randint(1, 3))]
        for at in flips:
            out[at] ^= 1 << rng.randrange(8)
        _fix_crc(out, pos, end, magic)
        return f"bits flipped at {flips}", bytes(out)
    if kind == "header" and magic == 2:
        name = rng.choice(list(_V2_FIELDS))
        offset, fmt, extremes = _V2_FIELDS[name]
        own = struct.unpack_from(fmt, data, pos + offset)[0]
        bits = struct.calcsize(fmt) * 8
        value = rng.choice([*extremes, own + 1, own - 1])
        value = ((value + (1 << (bits - 1))) % (1 << bits)) - (1 << (bits - 1))
        struct.pack_into(fmt, out, pos + offset, value)
        _fix_crc(out, pos, end, magic)
        return f"{name} of the batch at byte {pos} set to {value}", bytes(out)
    if kind == "header":  # a legacy entry: its length or its key/value length
        at = rng.choice((pos + 8, pos + 22 if magic == 1 else pos + 18))
        value = rng.choice((*INT32, -1, 0, 1))
        if at + 4 <= end:
            struct.pack_into(">i", out, at, value)
        _fix_crc(out, pos, end, magic)
        return f"legacy field at byte {at} set to {value}", bytes(out)
    return f"a record varint of the batch at byte {pos} set to an extreme", _mutate_records(out, pos, end, rng)


def _segments() -> list[Path]:
    from tests.conftest import VECTORS

    found = sorted((VECTORS / "real-broker-segments").rglob("*.log")) + list(KAFKA_40_SEGMENTS)
    return [p for p in found if p.stat().st_size <= MAX_SEGMENT]


def _run_both(cli: Callable[..., Result], args: tuple[str, ...]) -> tuple[Result, Result]:
    with fast.forced(True):
        reference = cli("dump", *args)
    with fast.forced(False):
        compiled = cli("dump", *args)
    return reference, compiled


@pytest.fixture
def one_command_tree(monkeypatch: pytest.MonkeyPatch) -> None:
    """The entry point builds Typer's command tree once, not per run: building it is most of a small dump's
    cost (about 60 of 70 ms), and the tree is the same every time."""
    import typer.main

    from groupctl.cli.app import app

    tree = typer.main.get_command(app)
    monkeypatch.setattr(typer.main, "get_command", lambda _app: tree)


@pytest.mark.usefixtures("one_command_tree")
def test_mutated_shared_segments_read_the_same_on_both_paths(
    cli: Callable[..., Result], real_segments: list[Path], tmp_path: Path
) -> None:
    segments = _segments()
    assert segments, "no small segment among the shared vectors"
    sources = [p.read_bytes() for p in segments]
    rng = random.Random(SEED)
    partition = tmp_path / "__consumer_offsets-0"
    partition.mkdir()
    target = partition / segment_file_name(0)
    damaged = 0
    for i in range(INPUTS):
        which = rng.randrange(len(sources))
        what, data = mutate(sources[which], rng)
        target.write_bytes(data)
        where = f"input {i}: {segments[which].name} of {segments[which].parent}, {what}"
        for args in COMMANDS:
            reference, compiled = _run_both(cli, (*args, str(partition)))
            for side in (reference, compiled):
                assert "internal error" not in side.err, f"{where}: dump {' '.join(args)}: {side.err}"
            assert compiled.code == reference.code, f"{where}: dump {' '.join(args)} exit codes differ"
            assert compiled.out == reference.out, f"{where}: dump {' '.join(args)} output differs"
            assert compiled.err == reference.err, f"{where}: dump {' '.join(args)} messages differ"
        damaged += reference.code != 0 or "damaged" in reference.err or "CRC" in reference.err
    assert damaged > INPUTS // 10, "the mutations hardly ever damaged anything: the fuzz is not reaching the readers"


def test_mutate_reaches_every_kind_and_keeps_crcs_valid() -> None:
    """The mutator's own contract: over a few dozen draws every kind of mutation comes up, and a flipped or
    field-set v2 batch still carries a CRC that checks (so the readers get past it)."""
    from groupctl.log.writer import SimpleRecord, build_batch

    data = build_batch([SimpleRecord(b"k", b"v", 5), SimpleRecord(b"k2", b"v2", 6)]) + build_batch(
        [SimpleRecord(b"k", b"v", 7)], base_offset=2, codec="gzip")
    rng = random.Random(SEED)
    kinds = set()
    for _ in range(200):
        what, out = mutate(data, rng)
        kinds.add(what.split(" ")[0])
        if what.startswith(("bits", "a record")):
            for pos, end, _ in _batches(out):
                stored = struct.unpack_from(">I", out, pos + 17)[0]
                assert stored == crc32c(out[pos + 21 : end]), what
    assert {"truncated", "bits", "a", "baseOffset", "recordCount"} <= kinds
