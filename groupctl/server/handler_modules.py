"""Every module whose handlers `groupctl serve` answers with; importing one registers its APIs."""

from groupctl.server import (  # noqa: F401 - imported for their registrations
    auth,
    cluster,
    configs,
    data,
    group_admin,
    groups,
    producers,
    share_groups,
    topics,
)
