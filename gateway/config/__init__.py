"""Configuration: the settings read once from the environment (with the upstream timings and
breaker thresholds, `timings`), the skins, and the live configuration that swaps them (file,
SIGHUP, the admin API, other instances through Redis), its versions kept in the store."""
