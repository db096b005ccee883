"""Codecs: Kafka's framings, interop with kafka-python's codecs, bounded output, corrupt input."""

from __future__ import annotations

import contextlib
import gzip
import os
import random
import struct

import lz4.frame
import pytest
import zstandard
from hypothesis import given, settings
from hypothesis import strategies as st
from kafka import codec as kp

from groupctl.log.compression import (
    CODEC_NAMES,
    LZ4_MAGIC,
    XERIAL_HEADER,
    CompressionError,
    codec_id,
    compress,
    decompress,
    xxh32,
)

pytestmark = pytest.mark.usefixtures("record_loop")  # each test on the reference and the compiled loop

PAYLOADS = [b"", b"x", os.urandom(100), b"abc" * 30_000 + os.urandom(70_000), b"\0" * 300_000]
CODECS = ["gzip", "snappy", "lz4", "zstd"]


@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("payload", PAYLOADS, ids=["empty", "1B", "random", "mixed", "zeros"])
def test_round_trip(codec: str, payload: bytes) -> None:
    assert decompress(codec_id(codec), compress(codec, payload)) == payload


@pytest.mark.parametrize("payload", PAYLOADS[1:], ids=["1B", "random", "mixed", "zeros"])
def test_kafka_python_reads_ours_and_we_read_theirs(payload: bytes) -> None:
    assert kp.gzip_decode(compress("gzip", payload)) == payload
    assert kp.snappy_decode(compress("snappy", payload)) == payload
    assert kp.lz4_decode(compress("lz4", payload)) == payload
    assert kp.zstd_decode(compress("zstd", payload)) == payload
    assert decompress(1, kp.gzip_encode(payload)) == payload
    assert decompress(2, kp.snappy_encode(payload)) == payload
    assert decompress(3, kp.lz4_encode(payload)) == payload
    assert decompress(4, kp.zstd_encode(payload)) == payload


def test_snappy_xerial_framing_as_java_writes_it() -> None:
    data = os.urandom(40_000) * 2  # three 32 KiB blocks
    out = compress("snappy", data)
    assert out.startswith(b"\x82SNAPPY\x00\x00\x00\x00\x01\x00\x00\x00\x01") and out[:16] == XERIAL_HEADER
    pos, blocks = 16, 0
    while pos < len(out):
        (size,) = struct.unpack_from(">i", out, pos)
        pos += 4 + size
        blocks += 1
    assert pos == len(out) and blocks == 3


def test_raw_snappy_as_some_clients_write_it() -> None:
    data = b"offsets " * 1000
    assert decompress(2, kp.snappy_encode(data, xerial_compatible=False)) == data


def test_xerial_header_with_little_endian_version_fields_is_read() -> None:
    # Some producers write the version/compat ints little-endian; the magic decides.
    data = b"hello snappy" * 100
    framed = compress("snappy", data)
    swapped = framed[:8] + struct.pack("<ii", 1, 1) + framed[16:]
    assert decompress(2, swapped) == data


def test_lz4_frame_is_kafkas_subset() -> None:
    out = compress("lz4", b"a" * 200_000)
    assert out[:4] == LZ4_MAGIC
    flg, bd = out[4], out[5]
    assert flg == 0x60 and bd == 0x40  # version 1, independent blocks, no checksums; 64 KiB blocks
    assert out[6] == (xxh32(out[4:6]) >> 8) & 0xFF
    assert out.endswith(b"\x00\x00\x00\x00")


def test_lz4_magic_0_uses_kafkas_broken_header_checksum() -> None:
    data = b"legacy lz4" * 50
    old = compress("lz4", data, magic=0)
    assert old[6] == (xxh32(old[0:6]) >> 8) & 0xFF  # hashed the magic bytes too
    assert old[6] != (xxh32(old[4:6]) >> 8) & 0xFF
    assert decompress(3, old, magic=0) == data
    with pytest.raises(CompressionError, match="descriptor checksum"):
        decompress(3, old, magic=1)
    # A correct checksum is fine for magic 0 too (Kafka does not check it there).
    assert decompress(3, compress("lz4", data), magic=0) == data


@pytest.mark.parametrize(
    "options",
    [
        {"block_checksum": True},
        {"content_checksum": True},
        {"store_size": False},
        {"block_size": lz4.frame.BLOCKSIZE_MAX4MB},
        {"block_size": lz4.frame.BLOCKSIZE_MAX256KB, "block_checksum": True, "content_checksum": True},
    ],
)
def test_lz4_frames_from_other_writers(options: dict) -> None:
    data = os.urandom(1000) * 300 + os.urandom(50_000)
    assert decompress(3, lz4.frame.compress(data, block_linked=False, **options)) == data


def test_lz4_linked_blocks_are_rejected_like_kafka() -> None:
    data = b"z" * 200_000
    with pytest.raises(CompressionError, match="dependent"):
        decompress(3, lz4.frame.compress(data, block_linked=True))


def test_lz4_block_checksum_mismatch() -> None:
    frame = bytearray(lz4.frame.compress(b"q" * 5000 + os.urandom(100), block_checksum=True, store_size=False))
    frame[-6] ^= 0xFF  # inside the last block checksum (before the 4-byte end mark)
    with pytest.raises(CompressionError, match="checksum"):
        decompress(3, bytes(frame))


def test_gzip_concatenated_members_and_trailing_garbage() -> None:
    two = gzip.compress(b"one,") + gzip.compress(b"two")
    assert decompress(1, two) == b"one,two"
    assert decompress(1, gzip.compress(b"only") + b"garbage!") == b"only"


def test_zstd_frames_without_content_size_and_several_frames() -> None:
    data = os.urandom(5000) * 40
    streamed = zstandard.ZstdCompressor(write_content_size=False).compress(data)
    assert decompress(4, streamed) == data
    assert decompress(4, compress("zstd", data) * 2) == data * 2


@pytest.mark.parametrize("codec", CODECS)
def test_output_is_bounded(codec: str) -> None:
    bomb = compress(codec, b"\0" * 5_000_000)
    assert decompress(codec_id(codec), bomb, limit=5_000_000) == b"\0" * 5_000_000
    with pytest.raises(CompressionError, match="exceeds the limit of 1000000 bytes"):
        decompress(codec_id(codec), bomb, limit=1_000_000)


def test_declared_zstd_size_over_the_limit_fails_before_decompressing() -> None:
    frame = zstandard.ZstdCompressor(write_content_size=True).compress(b"\0" * 2_000_000)
    with pytest.raises(CompressionError, match="exceeds the limit"):
        decompress(4, frame, limit=1000)


def test_raw_snappy_declared_length_over_the_limit() -> None:
    raw = kp.snappy_encode(b"\0" * 100_000, xerial_compatible=False)
    with pytest.raises(CompressionError, match="exceeds the limit"):
        decompress(2, raw, limit=99_999)


@pytest.mark.parametrize("codec", CODECS)
def test_truncated_input_is_a_compression_error(codec: str) -> None:
    payload = os.urandom(3000) * 3
    data = compress(codec, payload)
    for cut in (0, 1, 5, 7, 20, len(data) // 2, len(data) - 1):
        with pytest.raises(CompressionError):
            decompress(codec_id(codec), data[:cut])
    if codec == "snappy":  # xerial blocks are self-contained: a cut at a block boundary reads as fewer blocks
        assert decompress(2, data[:16]) == b""


@settings(max_examples=300, deadline=None)
@given(codec=st.sampled_from([1, 2, 3, 4]), data=st.binary(max_size=300), magic=st.sampled_from([0, 2]))
def test_garbage_never_raises_anything_else(codec: int, data: bytes, magic: int) -> None:
    with contextlib.suppress(CompressionError):
        assert len(decompress(codec, data, limit=1 << 20, magic=magic)) <= 1 << 20


def test_mutated_frames_never_raise_anything_else() -> None:
    rnd = random.Random(1234)
    for codec in CODECS:
        base = compress(codec, os.urandom(200) * 20)
        for _ in range(300):
            frame = bytearray(base)
            for _ in range(rnd.randint(1, 4)):
                frame[rnd.randrange(len(frame))] = rnd.randrange(256)
            try:
                out = decompress(codec_id(codec), bytes(frame), limit=1 << 16)
            except CompressionError:
                continue
            assert len(out) <= 1 << 16


@pytest.mark.parametrize(
    ("data", "expected"), [(b"", 0x02CC5D05), (b"a", 0x550D7456), (b"abc", 0x32D153FF)]
)
def test_xxh32_reference_values(data: bytes, expected: int) -> None:
    assert xxh32(data) == expected


def test_codec_names_and_ids() -> None:
    assert CODEC_NAMES == ("none", "gzip", "snappy", "lz4", "zstd")
    assert codec_id("ZSTD") == 4 and codec_id(2) == 2
    with pytest.raises(ValueError):
        codec_id("brotli")
    with pytest.raises(ValueError):
        codec_id(5)
    assert compress("none", b"abc") == b"abc"
    with pytest.raises(CompressionError):
        decompress(6, b"abc")
