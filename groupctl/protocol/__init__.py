"""Kafka's wire and record codec, driven by schemas written as data.

Kept import-free on purpose: `import groupctl.protocol` must stay cheap for the CLI. Import the
submodule you need (`records`, `consumer_protocol`, `schema`, `primitives`, `jsonconv`).
"""
