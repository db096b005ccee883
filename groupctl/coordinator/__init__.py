"""The in-process group coordinator."""
