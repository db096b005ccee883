"""Backends: where group commands get their answers (the local coordinator, later a real cluster)."""
