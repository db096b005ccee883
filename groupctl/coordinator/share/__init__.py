"""Share groups (KIP-932), following Kafka 4.1's `GroupMetadataManager` share paths.

- `state`: the fold of records 10-15 the coordinator's state keeps (imported by `coordinator.state`, so
  this package imports nothing itself);
- `records`: the record builders;
- `heartbeat`: ShareGroupHeartbeat, leaving, session expiry and share-partition initialization.
"""
