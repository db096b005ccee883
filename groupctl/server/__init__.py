"""`groupctl serve`: the in-process coordinator behind a Kafka protocol listener."""
