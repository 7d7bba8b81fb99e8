"""Configuration: the settings read once from the environment, the skins, and the live
configuration that swaps them (file, SIGHUP, the admin API, other instances through Redis)."""
