"""The casino platform's API: msgspec types, section 5 rules and the route catalogue."""
