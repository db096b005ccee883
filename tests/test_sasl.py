"""SASL PLAIN and SCRAM: the RFC examples byte for byte, both sides against each other, kafka-python's
SCRAM client against our server, and every way an exchange can go wrong."""

from __future__ import annotations

import base64

import pytest

from groupctl import sasl
from groupctl.sasl import (
    SaslAuthenticationFailed,
    SaslError,
    ScramClient,
    ScramCredential,
    ScramServer,
    generic_failure_message,
)

MECHANISMS = [sasl.SCRAM_SHA_256, sasl.SCRAM_SHA_512]

# RFC 7677 §3: user "user", password "pencil"
RFC7677 = {
    "client_nonce": "rOprNGfwEbeRWgbNEkqO",
    "server_nonce": "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0",
    "salt": "W22ZaJ0SNY7soEsUEjb6gQ==",
    "client_first": b"n,,n=user,r=rOprNGfwEbeRWgbNEkqO",
    "server_first": b"r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096",
    "client_final": b"c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
    b"p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=",
    "server_final": b"v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=",
}

# RFC 5802 §5: the same exchange with SHA-1 (not a Kafka mechanism: registered for the test only)
RFC5802 = {
    "client_nonce": "fyko+d2lbbFgONRv9qkxdawL",
    "server_nonce": "3rfcNHYJY1ZVvWVs7j",
    "salt": "QSXCR+Q6sek8bf92",
    "client_first": b"n,,n=user,r=fyko+d2lbbFgONRv9qkxdawL",
    "server_first": b"r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,s=QSXCR+Q6sek8bf92,i=4096",
    "client_final": b"c=biws,r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,p=v0X8v3Bz2T0CJGbJQyF0X+HI4Ts=",
    "server_final": b"v=rmF9pqV8S7suAoZWja4dJRkFsKQ=",
}


def _rfc_exchange(mechanism: str, vector: dict) -> None:
    client = ScramClient(mechanism, "user", "pencil", nonce=vector["client_nonce"])
    assert client.first_message() == vector["client_first"]
    assert client.final_message(vector["server_first"]) == vector["client_final"]
    client.verify_server_final(vector["server_final"])
    assert client.complete

    credential = ScramCredential.derive(mechanism, "pencil", base64.b64decode(vector["salt"]), 4096)
    server = ScramServer(mechanism, {"user": credential}.get, nonce=vector["server_nonce"])
    assert server.handle_client_first(vector["client_first"]) == vector["server_first"]
    assert server.handle_client_final(vector["client_final"]) == vector["server_final"]
    assert server.username == "user"


def test_rfc7677_scram_sha_256_example() -> None:
    _rfc_exchange(sasl.SCRAM_SHA_256, RFC7677)


def test_rfc5802_sha1_example(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sasl.SCRAM_HASHES, "SCRAM-SHA-1", "sha1")
    _rfc_exchange("SCRAM-SHA-1", RFC5802)


def test_rfc5802_keys() -> None:
    # RFC 5802's SaltedPassword-derived values, checked through the primitives
    salted = sasl.salted_password("sha1", "pencil", base64.b64decode(RFC5802["salt"]), 4096)
    client_key, stored_key, server_key = sasl.scram_keys("sha1", salted)
    assert len(client_key) == len(stored_key) == len(server_key) == 20
    credential = ScramCredential(base64.b64decode(RFC5802["salt"]), 4096, stored_key, server_key)
    assert "stored_key" not in repr(credential) and "4096" in repr(credential)


@pytest.mark.parametrize("mechanism", MECHANISMS)
@pytest.mark.parametrize("user", ["alice", "a,b=c", "=2C", "ünï"])
def test_round_trip(mechanism: str, user: str) -> None:
    credential = ScramCredential.derive(mechanism, "s3cret")
    server = ScramServer(mechanism, {user: credential}.get)
    client = ScramClient(mechanism, user, "s3cret")
    first = client.first_message()
    assert first.startswith(b"n,,n=" + sasl.escape_saslname(user).encode() + b",r=")
    final = client.final_message(server.handle_client_first(first))
    assert final.startswith(b"c=biws,r=")
    client.verify_server_final(server.handle_client_final(final))
    assert server.complete and client.complete
    assert server.username == user


def test_saslname_escaping() -> None:
    assert sasl.escape_saslname("a=b,c") == "a=3Db=2Cc"
    assert sasl.unescape_saslname("a=3Db=2Cc") == "a=b,c"
    assert sasl.unescape_saslname(sasl.escape_saslname("=2C")) == "=2C"
    with pytest.raises(SaslError, match="=2C or =3D"):
        sasl.unescape_saslname("a=b")


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_kafka_python_scram_client_against_our_server(mechanism: str) -> None:
    from kafka.net.sasl.scram import ScramClient as KpScramClient

    credential = ScramCredential.derive(mechanism, "pw")
    server = ScramServer(mechanism, {"bob": credential}.get)
    peer = KpScramClient("bob", "pw", mechanism)
    peer.process_server_first_message(server.handle_client_first(peer.first_message()))
    peer.process_server_final_message(server.handle_client_final(peer.final_message()))
    assert server.username == "bob"


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_our_client_matches_kafka_pythons_proof(mechanism: str) -> None:
    from kafka.net.sasl.scram import ScramClient as KpScramClient

    ours = ScramClient(mechanism, "bob", "pw", nonce="abc")
    peer = KpScramClient("bob", "pw", mechanism)
    peer.nonce = b"abc"
    assert ours.first_message() == peer.first_message()
    server_first = b"r=abcdef,s=" + base64.b64encode(b"salty") + b",i=4096"
    peer.process_server_first_message(server_first)
    assert ours.final_message(server_first) == peer.final_message()


# --- failures ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_wrong_password(mechanism: str) -> None:
    server = ScramServer(mechanism, {"alice": ScramCredential.derive(mechanism, "right")}.get)
    client = ScramClient(mechanism, "alice", "wrong")
    final = client.final_message(server.handle_client_first(client.first_message()))
    with pytest.raises(SaslAuthenticationFailed) as err:
        server.handle_client_final(final)
    assert err.value.message == (
        f"Authentication failed during authentication due to invalid credentials with SASL mechanism {mechanism}"
    )
    assert "alice" in err.value.reason and "alice" not in err.value.message
    assert not server.complete
    with pytest.raises(SaslError, match="not completed"):
        _ = server.username


def test_unknown_user_looks_like_a_wrong_password() -> None:
    mech = sasl.SCRAM_SHA_256
    server = ScramServer(mech, lambda _: None)
    client = ScramClient(mech, "nobody", "pw")
    server_first = server.handle_client_first(client.first_message())
    # a plausible salt and the minimum iterations, the same on every attempt
    again = ScramServer(mech, lambda _: None).handle_client_first(ScramClient(mech, "nobody", "x").first_message())
    assert server_first.split(b",")[1:] == again.split(b",")[1:]
    with pytest.raises(SaslAuthenticationFailed) as err:
        server.handle_client_final(client.final_message(server_first))
    assert err.value.message == generic_failure_message(mech)
    assert "unknown user" in err.value.reason


def test_nonce_mismatch_on_the_server() -> None:
    mech = sasl.SCRAM_SHA_512
    server = ScramServer(mech, {"u": ScramCredential.derive(mech, "p")}.get, nonce="SERVER")
    client = ScramClient(mech, "u", "p", nonce="CLIENT")
    server_first = server.handle_client_first(client.first_message())
    final = client.final_message(server_first).replace(b"CLIENTSERVER", b"XCLIENTSERVER")
    with pytest.raises(SaslAuthenticationFailed) as err:
        server.handle_client_final(final)
    assert err.value.reason == "Invalid client nonce in the final client message."


def test_nonce_mismatch_on_the_client() -> None:
    client = ScramClient(sasl.SCRAM_SHA_256, "u", "p", nonce="CLIENT")
    client.first_message()
    salt = base64.b64encode(b"s").decode()
    for bad in (f"r=OTHERSERVER,s={salt},i=4096", f"r=CLIENT,s={salt},i=4096"):
        with pytest.raises(SaslError, match="does not start with client nonce"):
            client.final_message(bad.encode())


@pytest.mark.parametrize(
    ("server_first", "match"),
    [
        (b"r=CLIENTx,s=c2FsdA==,i=4095", "less than the minimum 4096 for SCRAM-SHA-256"),
        (b"r=CLIENTx,s=c2FsdA==,i=99999999", "more than groupctl computes"),
        (b"r=CLIENTx,s=c2FsdA==,i=many", "invalid iterations"),
        (b"r=CLIENTx,s=!!!,i=4096", "not base64"),
        (b"s=c2FsdA==,r=CLIENTx,i=4096", "server first message format"),
        (b"m=ext,r=CLIENTx,s=c2FsdA==,i=4096", "mandatory extension"),
        (b"garbage", "bad attribute"),
        (b"\xff", "not UTF-8"),
    ],
)
def test_bad_server_first(server_first: bytes, match: str) -> None:
    client = ScramClient(sasl.SCRAM_SHA_256, "u", "p", nonce="CLIENT")
    client.first_message()
    with pytest.raises(SaslError, match=match):
        client.final_message(server_first)


def test_bad_server_final() -> None:
    mech = sasl.SCRAM_SHA_256
    server = ScramServer(mech, {"u": ScramCredential.derive(mech, "p")}.get)
    client = ScramClient(mech, "u", "p")
    good = server.handle_client_final(client.final_message(server.handle_client_first(client.first_message())))
    with pytest.raises(SaslError, match="failed with error: invalid-proof"):
        client.verify_server_final(b"e=invalid-proof")
    forged = b"v=" + base64.b64encode(bytes(32))
    with pytest.raises(SaslError, match="Invalid server signature"):
        client.verify_server_final(forged)
    with pytest.raises(SaslError, match="format"):
        client.verify_server_final(b"x=1")
    assert not client.complete
    client.verify_server_final(good)
    assert client.complete


def test_client_steps_out_of_order() -> None:
    client = ScramClient(sasl.SCRAM_SHA_256, "u", "p")
    with pytest.raises(SaslError, match="not sent yet"):
        client.final_message(b"r=x,s=c2FsdA==,i=4096")
    with pytest.raises(SaslError, match="not sent yet"):
        client.verify_server_final(b"v=AAAA")


@pytest.mark.parametrize(
    "client_first",
    [
        b"p=tls-unique,,n=u,r=abc",
        b"y,,n=u,r=abc",
        b"n,,r=abc,n=u",
        b"n,,n=u",
        b"n,,n=a=b,r=abc",
        b"n,,n=,r=abc",
        b"n,,n=u,r=a,c",
        b"n,x=1,n=u,r=abc",
        b"n,,m=ext,n=u,r=abc",
        b"\xff\xfe",
        b"",
    ],
)
def test_malformed_client_first(client_first: bytes) -> None:
    server = ScramServer(sasl.SCRAM_SHA_256, lambda _: ScramCredential.derive(sasl.SCRAM_SHA_256, "p"))
    with pytest.raises(SaslAuthenticationFailed) as err:
        server.handle_client_first(client_first)
    assert err.value.message == generic_failure_message(sasl.SCRAM_SHA_256)


def test_client_first_with_extensions_and_authzid() -> None:
    mech = sasl.SCRAM_SHA_256
    cred = ScramCredential.derive(mech, "p")
    server = ScramServer(mech, {"u": cred}.get, nonce="S")
    assert server.handle_client_first(b"n,a=u,n=u,r=C,tokenauth=true").startswith(b"r=CS,s=")
    assert server.extensions == {"tokenauth": "true"}
    with pytest.raises(SaslAuthenticationFailed, match="authorization id that is different"):
        ScramServer(mech, {"u": cred}.get).handle_client_first(b"n,a=other,n=u,r=C")


def test_client_final_with_authzid_binds_its_gs2_header() -> None:
    mech = sasl.SCRAM_SHA_256
    cred = ScramCredential.derive(mech, "p")
    server = ScramServer(mech, {"u": cred}.get, nonce="S")
    server.handle_client_first(b"n,a=u,n=u,r=C")
    with pytest.raises(SaslAuthenticationFailed) as err:
        server.handle_client_final(b"c=biws,r=CS,p=" + base64.b64encode(bytes(32)))
    assert "channel binding" in err.value.reason


@pytest.mark.parametrize(
    "client_final",
    [
        b"c=biws,r=CS",
        b"r=CS,c=biws,p=AAAA",
        b"c=biws,r=CS,p=!!",
        b"c=biws,r=CS,p=AAAA",
        b"c=eSws,r=CS,p=" + base64.b64encode(bytes(32)),
        b"c=biws,r=CX,p=" + base64.b64encode(bytes(32)),
    ],
)
def test_malformed_client_final(client_final: bytes) -> None:
    mech = sasl.SCRAM_SHA_256
    server = ScramServer(mech, {"u": ScramCredential.derive(mech, "p")}.get, nonce="S")
    server.handle_client_first(b"n,,n=u,r=C")
    with pytest.raises(SaslAuthenticationFailed):
        server.handle_client_final(client_final)
    with pytest.raises(SaslAuthenticationFailed, match="invalid credentials"):
        server.handle_client_final(b"c=biws,r=CS,p=" + base64.b64encode(bytes(32)))


def test_server_steps_out_of_order() -> None:
    mech = sasl.SCRAM_SHA_256
    server = ScramServer(mech, {"u": ScramCredential.derive(mech, "p")}.get)
    with pytest.raises(SaslAuthenticationFailed):
        server.handle_client_final(b"c=biws,r=x,p=AAAA")
    server.handle_client_first(b"n,,n=u,r=C")
    with pytest.raises(SaslAuthenticationFailed):
        server.handle_client_first(b"n,,n=u,r=C")


def test_credentials_below_the_minimum_iterations_are_refused() -> None:
    mech = sasl.SCRAM_SHA_256
    weak = ScramCredential(b"salt", 1024, b"k" * 32, b"k" * 32)
    with pytest.raises(SaslAuthenticationFailed) as err:
        ScramServer(mech, {"u": weak}.get).handle_client_first(b"n,,n=u,r=C")
    assert "less than the minimum" in err.value.reason
    for iterations in (4095, 16385):
        with pytest.raises(SaslError, match="between 4096 and 16384"):
            ScramCredential.derive(mech, "p", iterations=iterations)


def test_unsupported_mechanisms_and_bad_nonces() -> None:
    for mech in ("SCRAM-SHA-1", "PLAIN", "GSSAPI"):
        with pytest.raises(SaslError, match="not a SCRAM mechanism"):
            ScramClient(mech, "u", "p")
        with pytest.raises(SaslError, match="not a SCRAM mechanism"):
            ScramServer(mech, lambda _: None)
    with pytest.raises(SaslError, match="nonce"):
        ScramClient(sasl.SCRAM_SHA_256, "u", "p", nonce="a,b")
    with pytest.raises(SaslError, match="username"):
        ScramClient(sasl.SCRAM_SHA_256, "", "p")


# --- PLAIN --------------------------------------------------------------------------------------------


def test_plain_round_trip() -> None:
    data = sasl.plain_initial_response("alice", "pä ss")
    assert data == b"\0alice\0p\xc3\xa4 ss"
    assert sasl.parse_plain(data) == ("", "alice", "pä ss")
    assert sasl.parse_plain(sasl.plain_initial_response("alice", "x", authzid="alice")) == ("alice", "alice", "x")
    assert sasl.verify_plain(data, {"alice": "pä ss"}.get) == "alice"


@pytest.mark.parametrize(
    ("data", "error", "match"),
    [
        (b"alice\0secret", SaslError, "expected 3 tokens, got 2"),
        (b"\0a\0b\0c", SaslError, "expected 3 tokens, got 4"),
        (b"\xff\0a\0b", SaslError, "not UTF-8"),
        (b"\0\0secret", SaslAuthenticationFailed, "username not specified"),
        (b"\0alice\0", SaslAuthenticationFailed, "password not specified"),
        (b"bob\0alice\0secret", SaslAuthenticationFailed, "authorization id that is different"),
    ],
)
def test_plain_malformed(data: bytes, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        sasl.parse_plain(data)


def test_plain_verify_failures() -> None:
    users = {"alice": "secret"}.get
    for data in (b"\0alice\0wrong", b"\0mallory\0secret"):
        with pytest.raises(SaslAuthenticationFailed) as err:
            sasl.verify_plain(data, users)
        assert err.value.message == "Authentication failed: Invalid username or password"
    with pytest.raises(SaslAuthenticationFailed) as err:
        sasl.verify_plain(b"junk", users)
    assert err.value.message == generic_failure_message("PLAIN")
    assert "3 tokens" in err.value.reason


def test_plain_refuses_nul_and_empty_values() -> None:
    with pytest.raises(SaslError, match="NUL"):
        sasl.plain_initial_response("a\0b", "p")
    with pytest.raises(SaslError, match="non-empty"):
        sasl.plain_initial_response("a", "")


def test_generic_failure_message() -> None:
    assert generic_failure_message("SCRAM-SHA-256") == (
        "Authentication failed during authentication due to invalid credentials with SASL mechanism SCRAM-SHA-256"
    )
    assert generic_failure_message("PLAIN", reauthentication=True).startswith(
        "Authentication failed during re-authentication"
    )
