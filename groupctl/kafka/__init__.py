"""groupctl's own Kafka wire client: the group coordinator RPCs librdkafka cannot send.

Synchronous on purpose (the CLI is): one blocking socket per broker, one request in flight, every
wait bounded by a `Deadline`. Layers, bottom up:

* `properties`, `config`: client settings from the property files operators already have
  (Kafka's Java names and librdkafka's), and `-X key=value` overrides;
* `tls`, `connection`, `authentication`, `versions`: one broker connection with TLS, SASL PLAIN /
  SCRAM, ApiVersions negotiation and request framing (`groupctl.protocol.messages.framing`);
* `cluster`, `coordinator`: bootstrap, Metadata, cached connections, group coordinator lookup with
  retries;
* `groups`: the group RPCs, as request builders and response parsers around the network calls,
  so that tests can hold every request's bytes against kafka-python's.

Offsets, topics and group configs are confluent-kafka's part (`groupctl.backends.kafka_admin`).
"""
