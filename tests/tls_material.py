"""TLS material for tests, made with the `cryptography` package: a CA, a server certificate for
127.0.0.1/localhost, a client certificate (its key encrypted), and a second CA that signed nothing
the server has. Shared by the wire client's tests and the CLI's TLS runs (`tls_files` fixture)."""

from __future__ import annotations

import datetime
import ipaddress
import ssl
from pathlib import Path
from types import SimpleNamespace
from typing import Any

HOST = "127.0.0.1"


def make_certificates(directory: Path) -> SimpleNamespace:
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

    now = datetime.datetime.now(datetime.UTC)

    def name(common: str) -> x509.Name:
        return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])

    def ca(common: str) -> tuple[Any, Any]:
        key = ec.generate_private_key(ec.SECP256R1())
        cert = (
            x509.CertificateBuilder()
            .subject_name(name(common))
            .issuer_name(name(common))
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(False, False, False, False, False, True, True, False, False), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .sign(key, hashes.SHA256())
        )
        return key, cert

    def leaf(common: str, sans: list[x509.GeneralName], usage: Any, issuer: tuple[Any, Any]) -> tuple[Any, Any]:
        key = ec.generate_private_key(ec.SECP256R1())
        issuer_key, issuer_cert = issuer
        builder = (
            x509.CertificateBuilder()
            .subject_name(name(common))
            .issuer_name(issuer_cert.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(days=1))
            .not_valid_after(now + datetime.timedelta(days=2))
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(issuer_key.public_key()), critical=False)
        )
        if sans:
            builder = builder.add_extension(x509.SubjectAlternativeName(sans), critical=False)
        return key, builder.sign(issuer_key, hashes.SHA256())

    def write(stem: str, key: Any, cert: Any, password: bytes | None = None) -> tuple[Path, Path]:
        cert_path, key_path = directory / f"{stem}.crt", directory / f"{stem}.key"
        cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
        encryption = serialization.BestAvailableEncryption(password) if password else serialization.NoEncryption()
        key_path.write_bytes(
            key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption)
        )
        return cert_path, key_path

    root = ca("groupctl test CA")
    other = ca("some other CA")
    server = leaf(
        "broker",
        [x509.IPAddress(ipaddress.ip_address(HOST)), x509.DNSName("localhost")],
        ExtendedKeyUsageOID.SERVER_AUTH,
        root,
    )
    wrong_name = leaf("elsewhere", [x509.DNSName("elsewhere.example")], ExtendedKeyUsageOID.SERVER_AUTH, root)
    client = leaf("client", [], ExtendedKeyUsageOID.CLIENT_AUTH, root)
    ca_crt, _ = write("ca", *root)
    other_crt, _ = write("other-ca", *other)
    server_crt, server_key = write("server", *server)
    wrong_crt, wrong_key = write("wrong-name", *wrong_name)
    client_crt, client_key = write("client", *client, password=b"key-pass")
    bundle = directory / "client-bundle.pem"
    bundle.write_bytes(client_crt.read_bytes() + client_key.read_bytes())
    return SimpleNamespace(
        ca=ca_crt,
        other_ca=other_crt,
        server_crt=server_crt,
        server_key=server_key,
        wrong_name_crt=wrong_crt,
        wrong_name_key=wrong_key,
        client_crt=client_crt,
        client_key=client_key,
        client_key_password="key-pass",
        client_bundle=bundle,
    )


def server_context(files: SimpleNamespace, cert: Path | None = None, key: Path | None = None,
                   require_client: bool = False) -> ssl.SSLContext:
    """A server-side context with the test server certificate (or `cert`/`key`), asking for a client
    certificate signed by the test CA when `require_client`."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert or files.server_crt, key or files.server_key)
    if require_client:
        context.verify_mode = ssl.CERT_REQUIRED
        context.load_verify_locations(cafile=files.ca)
    return context
