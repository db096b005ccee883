"""Kafka log segments: read and write record batches (magic 0, 1 and 2), their codecs and CRCs."""
