"""Client settings from Java and librdkafka property names; secrets never shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from groupctl.errors import GroupctlError, UsageError
from groupctl.kafka.config import (
    REDACTED,
    ClientConfig,
    SaslSettings,
    is_secret,
    load_client_config,
    parse_bootstrap_servers,
    parse_jaas_config,
    refuse_secret_overrides,
)

BASE = {"bootstrap.servers": "b1:9092"}
PLAIN_JAAS = 'org.apache.kafka.common.security.plain.PlainLoginModule required username="alice" password="a-secret";'
SCRAM_JAAS = (
    'org.apache.kafka.common.security.scram.ScramLoginModule required\n  username="bob"\n  password="p\\"w\\\\d";'
)


def cfg(**props: str) -> ClientConfig:
    return ClientConfig.from_properties({**BASE, **{k.replace("_", "."): v for k, v in props.items()}})


def test_defaults() -> None:
    config = cfg()
    assert config.bootstrap_servers == (("b1", 9092),)
    assert (config.security_protocol, config.client_id, config.request_timeout_ms) == ("PLAINTEXT", "groupctl", 30000)
    assert (config.connect_timeout_ms, config.connect_timeout_max_ms) == (5000, 30000)
    assert config.sasl() is None and config.tls() is None


def test_common_settings() -> None:
    config = cfg(security_protocol="sasl_plaintext", client_id="ops", request_timeout_ms="5000")
    assert (config.security_protocol, config.client_id, config.request_timeout_ms) == ("SASL_PLAINTEXT", "ops", 5000)
    assert config.uses_sasl and not config.uses_tls


def test_connection_setup_bounds() -> None:
    config = cfg(socket_connection_setup_timeout_ms="2000", socket_connection_setup_timeout_max_ms="8000")
    assert (config.connect_timeout_ms, config.connect_timeout_max_ms) == (2000, 8000)


@pytest.mark.parametrize(
    ("props", "match"),
    [
        ({"bootstrap.servers": ""}, "no bootstrap servers"),
        ({"security.protocol": "TLS"}, "security.protocol='TLS' is not one of"),
        ({"request.timeout.ms": "soon"}, "request.timeout.ms='soon' is not a whole number"),
        ({"request.timeout.ms": "0"}, "must be positive"),
        ({"bootstrap.servers": "host:99999"}, "is not HOST:PORT"),
        ({"bootstrap.servers": " , "}, "name no HOST:PORT"),
    ],
)
def test_invalid_settings(props: dict[str, str], match: str) -> None:
    with pytest.raises(GroupctlError, match=match):
        ClientConfig.from_properties({**BASE, **props})


def test_bootstrap_server_forms() -> None:
    assert parse_bootstrap_servers("a:1, SASL_SSL://b:2,[::1]:3,c") == (
        ("a", 1),
        ("b", 2),
        ("::1", 3),
        ("c", 9092),
    )
    assert cfg(bootstrap_servers="a:1,[::1]:3").bootstrap_text == "a:1,[::1]:3"


# --- SASL -----------------------------------------------------------------------------------------


def test_librdkafka_sasl() -> None:
    config = cfg(security_protocol="SASL_SSL", sasl_mechanisms="scram-sha-256", sasl_username="u", sasl_password="p")
    settings = config.sasl()
    assert settings is not None
    assert (settings.mechanism, settings.username, settings.password) == ("SCRAM-SHA-256", "u", "p")
    assert "p" not in repr(settings).replace("password", "")


@pytest.mark.parametrize(
    ("mechanism", "jaas", "user", "password"),
    [
        ("PLAIN", PLAIN_JAAS, "alice", "a-secret"),
        ("SCRAM-SHA-512", SCRAM_JAAS, "bob", 'p"w\\d'),
    ],
)
def test_java_jaas_config(mechanism: str, jaas: str, user: str, password: str) -> None:
    config = ClientConfig.from_properties(
        {**BASE, "security.protocol": "SASL_PLAINTEXT", "sasl.mechanism": mechanism, "sasl.jaas.config": jaas}
    )
    settings = config.sasl()
    assert settings is not None and (settings.mechanism, settings.username, settings.password) == (
        mechanism,
        user,
        password,
    )


def test_librdkafka_names_win_over_jaas() -> None:
    config = ClientConfig.from_properties(
        {
            **BASE,
            "security.protocol": "SASL_PLAINTEXT",
            "sasl.mechanism": "PLAIN",
            "sasl.jaas.config": PLAIN_JAAS,
            "sasl.password": "override",
        }
    )
    settings = config.sasl()
    assert settings is not None and (settings.username, settings.password) == ("alice", "override")


def test_jaas_parsing() -> None:
    assert parse_jaas_config('a.B required k=v x="y z";') == ("a.B", {"k": "v", "x": "y z"})
    assert parse_jaas_config("M optional;") == ("M", {})
    bad = [
        ("M required k=v", "must end with ';'"),
        ("M required k=v; N required;", "exactly one login module"),
        ("M maybe k=v;", "not a login module flag"),
        ("M required k=;", "has no value"),
        ("M required k v;", "expected key=value"),
        ('M required k="open;', "cannot parse"),
        ("M", "expected 'LoginModuleClass"),
    ]
    for text, match in bad:
        with pytest.raises(GroupctlError, match=match):
            parse_jaas_config(text)


def test_gssapi_default_is_explained() -> None:
    config = cfg(security_protocol="SASL_SSL", sasl_username="u", sasl_password="p")
    with pytest.raises(GroupctlError) as err:
        config.sasl()
    message = str(err.value)
    assert "GSSAPI (sasl.mechanism is not set, and Kafka clients then use GSSAPI)" in message
    assert "PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 only" in message


@pytest.mark.parametrize("mechanism", ["GSSAPI", "OAUTHBEARER"])
def test_unsupported_mechanisms(mechanism: str) -> None:
    config = cfg(security_protocol="SASL_PLAINTEXT", sasl_mechanism=mechanism)
    with pytest.raises(GroupctlError, match=f"SASL mechanism {mechanism} is not supported by groupctl's wire client"):
        config.sasl()


def test_unsupported_mechanism_fails_only_when_needed() -> None:
    # the file loads: confluent-kafka may still use it for the commands that need no wire client
    config = cfg(security_protocol="SASL_SSL", sasl_mechanism="OAUTHBEARER")
    assert config.sasl_mechanism == "OAUTHBEARER"


def test_sasl_failures() -> None:
    with pytest.raises(GroupctlError, match="disagree"):
        _ = cfg(security_protocol="SASL_SSL", sasl_mechanism="PLAIN", sasl_mechanisms="SCRAM-SHA-256").sasl_mechanism
    with pytest.raises(GroupctlError, match="needs a username and password"):
        cfg(security_protocol="SASL_SSL", sasl_mechanism="PLAIN", sasl_username="u").sasl()
    krb = "com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true;"
    with pytest.raises(GroupctlError, match=r"Krb5LoginModule \(GSSAPI\)"):
        cfg(security_protocol="SASL_SSL", sasl_mechanism="PLAIN", sasl_jaas_config=krb).sasl()


# --- TLS ------------------------------------------------------------------------------------------


def test_librdkafka_tls() -> None:
    tls = cfg(
        security_protocol="SSL",
        ssl_ca_location="ca.pem",
        ssl_certificate_location="c.pem",
        ssl_key_location="k.pem",
        ssl_key_password="kp",
        ssl_endpoint_identification_algorithm="none",
    ).tls()
    assert tls is not None
    assert (tls.ca_location, tls.certificate_location, tls.key_location, tls.key_password) == (
        "ca.pem",
        "c.pem",
        "k.pem",
        "kp",
    )
    assert not tls.check_hostname and tls.verify_certificates
    assert "kp" not in repr(tls)


def test_tls_defaults() -> None:
    tls = cfg(security_protocol="SASL_SSL", ssl_ca_location="probe").tls()
    assert tls is not None
    assert tls.ca_location is None and tls.check_hostname and tls.verify_certificates


def test_java_pem_stores() -> None:
    props = {
        **BASE,
        "security.protocol": "SSL",
        "ssl.truststore.type": "PEM",
        "ssl.truststore.location": "/etc/kafka/ca.pem",
        "ssl.keystore.type": "PEM",
        "ssl.keystore.location": "/etc/kafka/client.pem",
        "ssl.key.password": "kp",
        "ssl.endpoint.identification.algorithm": "",
    }
    tls = ClientConfig.from_properties(props).tls()
    assert tls is not None
    assert (tls.ca_location, tls.certificate_location, tls.key_location) == (
        "/etc/kafka/ca.pem",
        "/etc/kafka/client.pem",
        None,
    )
    assert not tls.check_hostname
    inline = ClientConfig.from_properties(
        {
            **BASE,
            "security.protocol": "SSL",
            "ssl.truststore.type": "PEM",
            "ssl.truststore.certificates": "-----BEGIN CERTIFICATE-----...",
        }
    ).tls()
    assert inline is not None and inline.ca_pem and inline.ca_pem.startswith("-----BEGIN")


@pytest.mark.parametrize(
    ("props", "match"),
    [
        ({"ssl.truststore.location": "t.jks"}, "ssl.truststore.type=JKS: groupctl reads PEM only"),
        ({"ssl.truststore.location": "t.p12", "ssl.truststore.type": "PKCS12"}, "keytool -exportcert"),
        ({"ssl.keystore.location": "k.jks"}, "ssl.keystore.type=JKS: groupctl reads PEM only"),
        ({"ssl.keystore.location": "k.p12", "ssl.keystore.type": "pkcs12"}, "openssl pkcs12"),
        ({"ssl.keystore.key": "-----BEGIN", "ssl.keystore.type": "PEM"}, "inline client certificates"),
        ({"ssl.key.location": "k.pem"}, "without ssl.certificate.location"),
        ({"ssl.endpoint.identification.algorithm": "http"}, "expected https, none or empty"),
        ({"enable.ssl.certificate.verification": "maybe"}, "expected true or false"),
    ],
)
def test_tls_errors_when_a_connection_needs_tls(props: dict[str, str], match: str) -> None:
    config = ClientConfig.from_properties({**BASE, "security.protocol": "SSL", **props})
    with pytest.raises(GroupctlError, match=match):
        config.tls()


def test_java_keystores_do_not_matter_without_tls() -> None:
    assert cfg(ssl_truststore_location="t.jks").tls() is None


# --- secrets --------------------------------------------------------------------------------------


def test_redacted_never_shows_secrets() -> None:
    secrets = {
        "sasl.password": "pw-1",
        "sasl.jaas.config": PLAIN_JAAS,
        "ssl.key.password": "pw-2",
        "ssl.truststore.password": "pw-3",
        "ssl.keystore.password": "pw-4",
        "sasl.oauthbearer.client.credentials.client.secret": "pw-5",
        "ssl.key.pem": "pw-6",
        "ssl.keystore.key": "pw-7",
    }
    config = ClientConfig.from_properties({**BASE, "sasl.username": "alice", **secrets})
    shown = config.redacted()
    assert shown["sasl.username"] == "alice" and shown["bootstrap.servers"] == "b1:9092"
    for name, value in secrets.items():
        assert shown[name] == REDACTED
        assert value not in repr(shown) and value not in repr(config)
    assert list(shown) == sorted(shown)
    assert is_secret("SASL.PASSWORD") and not is_secret("ssl.key.location") and not is_secret("sasl.username")


def test_load_client_config_precedence(tmp_path: Path) -> None:
    path = tmp_path / "client.properties"
    path.write_text("bootstrap.servers=file:1\nclient.id=from-file\nsecurity.protocol=SSL\n")
    config = load_client_config(path, ["client.id=from-x", "security.protocol=PLAINTEXT"], bootstrap_servers="flag:2")
    assert config.bootstrap_servers == (("flag", 2),)
    assert config.client_id == "from-x" and config.security_protocol == "PLAINTEXT"
    assert load_client_config(None, {"bootstrap.servers": "m:3"}).bootstrap_servers == (("m", 3),)


def test_secrets_from_the_environment_win_over_the_file(tmp_path: Path) -> None:
    path = tmp_path / "client.properties"
    path.write_text(f"bootstrap.servers=b:1\nsecurity.protocol=SASL_SSL\nsasl.mechanism=PLAIN\nsasl.jaas.config={PLAIN_JAAS}\n")
    environ = {"GROUPCTL_SASL_PASSWORD": "from-env", "GROUPCTL_SSL_KEY_PASSWORD": "key-env", "OTHER": "x"}
    config = load_client_config(path, environ=environ)
    assert config.sasl() == SaslSettings("PLAIN", "alice", "from-env")
    assert config.properties["ssl.key.password"] == "key-env"
    assert load_client_config(path).sasl() == SaslSettings("PLAIN", "alice", "a-secret")
    assert load_client_config(path, environ={"GROUPCTL_SASL_PASSWORD": ""}).sasl() == SaslSettings(
        "PLAIN", "alice", "a-secret"
    )


@pytest.mark.parametrize("name", ["sasl.password", "sasl.jaas.config", "ssl.key.password", "ssl.keystore.password"])
def test_secret_overrides_are_refused(name: str) -> None:
    with pytest.raises(UsageError, match=rf"-X {name}=\.\.\.: secrets are not taken from the command line") as failure:
        refuse_secret_overrides(["client.id=ops", f"{name}=hunter2"])
    assert "hunter2" not in str(failure.value) and "GROUPCTL_SASL_PASSWORD" in str(failure.value)
    refuse_secret_overrides(["client.id=ops", "sasl.username=alice", "ssl.key.location=k.pem"])


# --- the same settings for confluent-kafka -----------------------------------------------------------


def test_librdkafka_properties_from_the_java_dialect() -> None:
    java = {
        "bootstrap.servers": "SASL_SSL://b1:9093, b2:9093",
        "security.protocol": "sasl_ssl",
        "sasl.mechanism": "SCRAM-SHA-512",
        "sasl.jaas.config": SCRAM_JAAS,
        "ssl.truststore.type": "PEM",
        "ssl.truststore.location": "/etc/kafka/ca.pem",
        "ssl.keystore.type": "PEM",
        "ssl.keystore.location": "/etc/kafka/client.pem",
        "ssl.key.password": "kp",
        "ssl.endpoint.identification.algorithm": "",
        "ssl.enabled.protocols": "TLSv1.3",
        "default.api.timeout.ms": "60000",
        "request.timeout.ms": "20000",
    }
    assert ClientConfig.from_properties(java).librdkafka_properties() == {
        "bootstrap.servers": "b1:9093,b2:9093",
        "security.protocol": "SASL_SSL",
        "client.id": "groupctl",
        "sasl.mechanisms": "SCRAM-SHA-512",
        "sasl.username": "bob",
        "sasl.password": 'p"w\\d',
        "ssl.ca.location": "/etc/kafka/ca.pem",
        "ssl.certificate.location": "/etc/kafka/client.pem",
        "ssl.key.location": "/etc/kafka/client.pem",
        "ssl.key.password": "kp",
        "ssl.endpoint.identification.algorithm": "none",
        "request.timeout.ms": "20000",
    }


def test_librdkafka_properties_keep_librdkafka_names() -> None:
    native = {
        **BASE,
        "security.protocol": "SASL_SSL",
        "sasl.mechanisms": "PLAIN",
        "sasl.username": "carol",
        "sasl.password": "pw",
        "sasl.jaas.config": PLAIN_JAAS,  # the explicit librdkafka names win
        "ssl.keystore.location": "client.p12",  # librdkafka's PKCS#12 keystore
        "ssl.keystore.password": "store-pw",
        "debug": "broker",
        "client.id": "ops",
    }
    props = ClientConfig.from_properties(native).librdkafka_properties()
    assert (props["sasl.username"], props["sasl.password"], props["sasl.mechanisms"]) == ("carol", "pw", "PLAIN")
    assert (props["ssl.keystore.location"], props["ssl.keystore.password"]) == ("client.p12", "store-pw")
    assert (props["debug"], props["client.id"]) == ("broker", "ops")
    assert "sasl.jaas.config" not in props and "sasl.mechanism" not in props
    assert "sasl.mechanisms" not in cfg().librdkafka_properties()


def test_confluent_kafka_accepts_the_translated_java_settings(tmp_path: Path) -> None:
    from confluent_kafka.admin import AdminClient

    ca = tmp_path / "ca.pem"
    ca.write_text("")
    java = {
        **BASE,
        "security.protocol": "SASL_PLAINTEXT",
        "sasl.mechanism": "SCRAM-SHA-256",
        "sasl.jaas.config": SCRAM_JAAS,
        "ssl.truststore.type": "PEM",
        "ssl.truststore.location": str(ca),
        "ssl.endpoint.identification.algorithm": "",
        "ssl.enabled.protocols": "TLSv1.2,TLSv1.3",
        "sasl.login.callback.handler.class": "com.example.Handler",
        "default.api.timeout.ms": "60000",
    }
    AdminClient({**ClientConfig.from_properties(java).librdkafka_properties(), "log_level": 0})
