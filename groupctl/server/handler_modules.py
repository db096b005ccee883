"""Every module whose handlers `groupctl serve` answers with; importing one registers its APIs."""

from groupctl.server import cluster  # noqa: F401
