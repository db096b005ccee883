"""TLS with a CA made in the test: verification, hostname checks, client certificates, and the
explanations for the usual mistakes."""

from __future__ import annotations

import ssl
from typing import Any

import pytest

from groupctl.kafka.config import TlsSettings
from groupctl.kafka.connection import BrokerConnection
from groupctl.kafka.deadline import Deadline
from groupctl.kafka.errors import ConnectionFailed, ProtocolFailure, TlsFailed
from groupctl.kafka.tls import client_context, explain_handshake_failure
from groupctl.protocol.data.metadata import MetadataRequestData
from tests.server.waits import WAIT_S

HOST = "127.0.0.1"


def tls_config(config_for: Any, broker: Any, **props: str) -> Any:
    return config_for(broker, security_protocol="SSL", **props)


def open_tls(broker: Any, config: Any, host: str = HOST) -> BrokerConnection:
    from groupctl.kafka.tls import client_context as make

    settings = config.tls()
    return BrokerConnection(host, broker.port, config, ssl_context=make(settings)).open(Deadline(WAIT_S))


def test_context_settings(tls_files: Any) -> None:
    context = client_context(TlsSettings(ca_location=str(tls_files.ca)))
    assert context.verify_mode == ssl.CERT_REQUIRED and context.check_hostname
    assert context.minimum_version == ssl.TLSVersion.TLSv1_2
    loose = client_context(TlsSettings(check_hostname=False, verify_certificates=False))
    assert loose.verify_mode == ssl.CERT_NONE and not loose.check_hostname
    inline = client_context(TlsSettings(ca_pem=tls_files.ca.read_text()))
    assert inline.cert_store_stats()["x509_ca"] == 1
    directory = client_context(TlsSettings(ca_location=str(tls_files.ca.parent)))
    assert directory.verify_mode == ssl.CERT_REQUIRED


def test_context_file_errors(tls_files: Any, tmp_path: Any) -> None:
    with pytest.raises(
        TlsFailed, match=r"cannot load the trusted CA certificates from .*missing.pem \(ssl.ca.location\)"
    ):
        client_context(TlsSettings(ca_location=str(tmp_path / "missing.pem")))
    with pytest.raises(TlsFailed, match="cannot load the client certificate and key"):
        client_context(
            TlsSettings(
                certificate_location=str(tls_files.client_crt),
                key_location=str(tls_files.client_key),
                key_password="wrong",
            )
        )


def test_tls_connection(fake_cluster: Any, config_for: Any, tls_files: Any) -> None:
    (broker,) = fake_cluster(tls=tls_files.server_context())
    with open_tls(broker, tls_config(config_for, broker, ssl_ca_location=str(tls_files.ca))) as conn:
        assert conn.request(3, 13, MetadataRequestData(topics=[]), Deadline(WAIT_S)).cluster_id == "fake-cluster"


def test_untrusted_broker_certificate(fake_cluster: Any, config_for: Any, tls_files: Any) -> None:
    (broker,) = fake_cluster(tls=tls_files.server_context())
    with pytest.raises(TlsFailed) as err:
        open_tls(broker, tls_config(config_for, broker, ssl_ca_location=str(tls_files.other_ca)))
    assert "certificate verify failed" in str(err.value)
    assert "set ssl.ca.location to the CA certificate" in str(err.value)


def test_hostname_mismatch_and_turning_the_check_off(fake_cluster: Any, config_for: Any, tls_files: Any) -> None:
    (broker,) = fake_cluster(tls=tls_files.server_context(tls_files.wrong_name_crt, tls_files.wrong_name_key))
    config = tls_config(config_for, broker, ssl_ca_location=str(tls_files.ca))
    with pytest.raises(TlsFailed, match=r"ssl\.endpoint\.identification\.algorithm=none"):
        open_tls(broker, config)
    relaxed = tls_config(
        config_for, broker, ssl_ca_location=str(tls_files.ca), ssl_endpoint_identification_algorithm="none"
    )
    with open_tls(broker, relaxed) as conn:
        assert conn.is_open


def test_hostname_by_dns_name(fake_cluster: Any, config_for: Any, tls_files: Any) -> None:
    (broker,) = fake_cluster(tls=tls_files.server_context())
    with open_tls(broker, tls_config(config_for, broker, ssl_ca_location=str(tls_files.ca)), host="localhost") as conn:
        assert conn.is_open


def test_client_certificate(fake_cluster: Any, config_for: Any, tls_files: Any) -> None:
    (broker,) = fake_cluster(tls=tls_files.server_context(require_client=True))
    with_cert = tls_config(
        config_for,
        broker,
        ssl_ca_location=str(tls_files.ca),
        ssl_certificate_location=str(tls_files.client_crt),
        ssl_key_location=str(tls_files.client_key),
        ssl_key_password=tls_files.client_key_password,
    )
    with open_tls(broker, with_cert) as conn:
        assert conn.request(3, 13, MetadataRequestData(topics=[]), Deadline(WAIT_S)).cluster_id == "fake-cluster"
    without = tls_config(config_for, broker, ssl_ca_location=str(tls_files.ca))
    with pytest.raises((TlsFailed, ConnectionFailed)):
        open_tls(broker, without)


def test_java_pem_keystore_in_one_file(fake_cluster: Any, config_for: Any, tls_files: Any) -> None:
    (broker,) = fake_cluster(tls=tls_files.server_context(require_client=True))
    config = tls_config(
        config_for,
        broker,
        ssl_truststore_type="PEM",
        ssl_truststore_location=str(tls_files.ca),
        ssl_keystore_type="PEM",
        ssl_keystore_location=str(tls_files.client_bundle),
        ssl_key_password=tls_files.client_key_password,
    )
    with open_tls(broker, config) as conn:
        assert conn.is_open


def test_tls_client_on_a_plaintext_listener(fake_cluster: Any, config_for: Any, tls_files: Any) -> None:
    (broker,) = fake_cluster()
    with pytest.raises((TlsFailed, ConnectionFailed)) as err:
        open_tls(broker, tls_config(config_for, broker, ssl_ca_location=str(tls_files.ca)))
    assert "TLS handshake" in str(err.value)


def test_plaintext_client_on_a_tls_listener(fake_cluster: Any, config_for: Any, tls_files: Any) -> None:
    (broker,) = fake_cluster(tls=tls_files.server_context())
    conn = BrokerConnection(HOST, broker.port, config_for(broker))
    with pytest.raises((ProtocolFailure, ConnectionFailed)) as err:
        conn.open(Deadline(WAIT_S))
    assert "security.protocol" in str(err.value)


def test_handshake_explanations() -> None:
    wrong_version = ssl.SSLError(1, "[SSL: WRONG_VERSION_NUMBER] wrong version number")
    wrong_version.reason = "WRONG_VERSION_NUMBER"
    assert "PLAINTEXT or SASL_PLAINTEXT listener" in str(explain_handshake_failure(wrong_version, "h:1"))
    alert = ssl.SSLError(1, "[SSL: TLSV13_ALERT_CERTIFICATE_REQUIRED]")
    alert.reason = "TLSV13_ALERT_CERTIFICATE_REQUIRED"
    assert "client certificate" in str(explain_handshake_failure(alert, "h:1"))
