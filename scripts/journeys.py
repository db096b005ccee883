"""Count the groupctl source files three journeys run code in: how far a reader has to follow one.

1. `group remove-members --local`: removing one static member of the demo's consumer group (confirmed with --yes).
2. `dump audit` over the demo's `__consumer_offsets` log.
3. a JoinGroup on `serve`: the second JoinGroup v9 of a new member (the first got its member id), from
   the frame arriving to the answer leaving.

A file counts when a function defined in it is called during the journey; code that runs only at
import (a module body) does not. Prints one line per journey: the count, then the files.
Usage: python3 scripts/journeys.py [--verbose]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import socket
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import groupctl

PACKAGE = Path(groupctl.__file__).resolve().parent


class Files:
    """The groupctl files whose functions were called while recording (any thread)."""

    def __init__(self) -> None:
        self.seen: set[str] = set()
        self.recording = False

    def profile(self, frame: FrameType, event: str, arg: Any) -> None:
        if event == "call" and self.recording:
            code = frame.f_code
            if code.co_name != "<module>" and code.co_filename.startswith(str(PACKAGE)):
                self.seen.add(str(Path(code.co_filename).relative_to(PACKAGE.parent)))

    @contextlib.contextmanager
    def record(self) -> Iterator[None]:
        self.recording = True
        try:
            yield
        finally:
            self.recording = False


def cli(args: list[str]) -> int:
    """Run the groupctl CLI in this process; its exit status."""
    from groupctl.cli.app import main

    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            main(args)
        except SystemExit as exc:
            return int(exc.code or 0)
    return 0


def remove_members(lab: Path, files: Files) -> None:
    with files.record():
        code = cli(["group", "remove-members", "payments-app", "--instance-id", "pay-1", "--yes", "--local", str(lab)])
    if code != 0:
        raise SystemExit(f"remove-members exited {code}")


def dump_audit(lab: Path, files: Files) -> None:
    with files.record():
        code = cli(["dump", "audit", "--fail-on", "none", str(lab / "__consumer_offsets-0")])
    if code != 0:
        raise SystemExit(f"dump audit exited {code}")


def join_group(lab: Path, files: Files) -> None:
    from groupctl.protocol.messages import API_SCHEMAS, framing
    from groupctl.server.server import ServerOptions, ServerThread

    # The script also measures trees from before the classes (no data_class), and from while JoinGroup was
    # still a dict (a TYPED_APIS without 11); every API is typed since that set went.
    typed = hasattr(API_SCHEMAS[11][0], "data_class") and 11 in getattr(framing, "TYPED_APIS", {11})

    def exchange(sock: socket.socket, body: dict[str, Any], correlation_id: int) -> dict[str, Any]:
        wire = API_SCHEMAS[11][0].data_class.from_dict(body) if typed else body
        sock.sendall(framing.encode_request(11, 9, correlation_id, "journeys", wire))
        size = framing.frame_size(_read(sock, 4), 1 << 26)
        answer = framing.decode_response(_read(sock, size), 11, 9).body
        return answer.to_dict() if typed else dict(answer)

    server = ServerThread(ServerOptions(lab.parent / "served", port=0))
    server.start()
    try:
        host, port = server.bootstrap.rsplit(":", 1)
        with socket.create_connection((host, int(port)), timeout=60) as sock:
            request: dict[str, Any] = {
                "groupId": "journeys", "sessionTimeoutMs": 10_000, "rebalanceTimeoutMs": 10_000, "memberId": "",
                "groupInstanceId": None, "protocolType": "consumer", "protocols": [{"name": "range", "metadata": b""}],
                "reason": None,
            }
            request["memberId"] = exchange(sock, request, 1)["memberId"]
            with files.record():
                answer = exchange(sock, request, 2)
            if answer["errorCode"] != 0:
                raise SystemExit(f"the JoinGroup was answered with error {answer['errorCode']}")
    finally:
        server.stop()


def _read(sock: socket.socket, n: int) -> bytes:
    out = b""
    while len(out) < n:
        chunk = sock.recv(n - len(out))
        if not chunk:
            raise SystemExit("the server closed the connection")
        out += chunk
    return out


JOURNEYS: dict[str, Callable[[Path, Files], None]] = {
    "remove-members --local": remove_members,
    "dump audit": dump_audit,
    "JoinGroup on serve": join_group,
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--verbose", action="store_true", help="list the files of each journey")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="groupctl-journeys-") as tmp:
        lab = Path(tmp) / "lab"
        if cli(["demo", "--local", str(lab)]) != 0:
            raise SystemExit("groupctl demo failed")
        for name, journey in JOURNEYS.items():
            files = Files()
            sys.setprofile(files.profile)
            threading.setprofile(files.profile)
            try:
                journey(lab, files)
            finally:
                sys.setprofile(None)
                threading.setprofile(None)  # type: ignore[arg-type]  # None removes the hook
            print(f"{name}: {len(files.seen)} files")
            if args.verbose:
                for path in sorted(files.seen):
                    print(f"  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
