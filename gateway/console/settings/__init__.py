"""A skin's settings changed from the console (`reality_check_minutes`): `changes` previews and
applies one through the same versioned overrides as an upstream's base URL
(`gateway.config.history.SETTING`)."""
