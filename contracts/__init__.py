"""The casino platform's API: msgspec types, the validation rules and the route catalogue."""
