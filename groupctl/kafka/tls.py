"""The client `ssl.SSLContext` for a cluster, built once from `TlsSettings`.

TLS 1.2 or newer; the broker certificate is checked against the configured CAs (the system's
when none is configured) and, unless turned off, its name against the host the client dialled,
as Kafka's `ssl.endpoint.identification.algorithm=https` does.
"""

from __future__ import annotations

import os
import ssl

from groupctl.kafka.config import TlsSettings
from groupctl.kafka.errors import TlsFailed


def client_context(settings: TlsSettings) -> ssl.SSLContext:
    """A context for `wrap_socket(..., server_hostname=host)`; file problems name the property."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.check_hostname = settings.check_hostname
    context.verify_mode = ssl.CERT_REQUIRED if settings.verify_certificates else ssl.CERT_NONE
    try:
        if settings.ca_location:
            if os.path.isdir(settings.ca_location):
                context.load_verify_locations(capath=settings.ca_location)
            else:
                context.load_verify_locations(cafile=settings.ca_location)
        if settings.ca_pem:
            context.load_verify_locations(cadata=settings.ca_pem)
        if not settings.ca_location and not settings.ca_pem and settings.verify_certificates:
            context.load_default_certs(ssl.Purpose.SERVER_AUTH)
    except (OSError, ssl.SSLError) as exc:
        where = settings.ca_location or "the inline CA certificates"
        raise TlsFailed(f"cannot load the trusted CA certificates from {where} (ssl.ca.location): {_why(exc)}") from exc
    if settings.certificate_location:
        try:
            context.load_cert_chain(
                settings.certificate_location,
                settings.key_location,
                password=settings.key_password,
            )
        except (OSError, ssl.SSLError) as exc:
            files = settings.certificate_location + (f" and {settings.key_location}" if settings.key_location else "")
            raise TlsFailed(
                f"cannot load the client certificate and key from {files} "
                f"(ssl.certificate.location, ssl.key.location, ssl.key.password): {_why(exc)}"
            ) from exc
    return context


def _why(exc: Exception) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


def explain_handshake_failure(exc: ssl.SSLError, address: str) -> TlsFailed:
    """Name the usual cause of a failed handshake next to OpenSSL's words."""
    if isinstance(exc, ssl.SSLCertVerificationError):
        detail = exc.verify_message or str(exc)
        if "hostname" in detail.lower() or "ip address mismatch" in detail.lower():
            hint = (
                "the broker certificate does not name this host; connect by a name it carries, or set "
                "ssl.endpoint.identification.algorithm=none to skip the name check"
            )
        else:
            hint = "set ssl.ca.location to the CA certificate (PEM) that signed the broker certificate"
        return TlsFailed(f"TLS handshake with {address} failed: certificate verify failed ({detail}); {hint}")
    reason = exc.reason or str(exc)
    hint = ""
    if reason in ("WRONG_VERSION_NUMBER", "RECORD_LAYER_FAILURE", "PACKET_LENGTH_TOO_LONG"):
        hint = "; is this a PLAINTEXT or SASL_PLAINTEXT listener? check security.protocol"
    elif "CERTIFICATE" in reason.upper() or "ALERT" in reason.upper():
        hint = "; the broker may require a client certificate it trusts (ssl.certificate.location, ssl.key.location)"
    return TlsFailed(f"TLS handshake with {address} failed: {reason}{hint}")
