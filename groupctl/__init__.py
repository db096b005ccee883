"""groupctl: operate Kafka consumer groups from a shell."""

__version__ = "0.1.0"
