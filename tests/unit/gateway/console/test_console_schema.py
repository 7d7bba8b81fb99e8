"""The console's generated API types say every field is on the wire: true of each Struct they come from."""

from __future__ import annotations

import msgspec

from gateway.console import schema


def test_every_struct_the_console_types_come_from_encodes_all_its_fields() -> None:
    for struct in schema.STRUCTS:
        assert not struct.__struct_config__.omit_defaults, struct.__name__
        fields = msgspec.structs.fields(struct)
        assert all(msgspec.UnsetType not in getattr(f.type, "__args__", ()) for f in fields), struct.__name__


def test_the_console_words_are_the_gateways() -> None:
    assert 'export type Role = "admin" | "operator" | "viewer";' in schema.TARGET.read_text()
    assert '  | "sign-in-failed"\n' in schema.TARGET.read_text()
