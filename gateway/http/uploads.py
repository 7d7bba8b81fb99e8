"""A multipart upload's file checked before a byte of it goes to the platform: its declared type
must be one the route takes, and its first bytes must be that type's (a PNG starts as a PNG, a PDF
as a PDF). A document the platform would keep and serve back later (an SVG or an HTML page calling
itself an image) never reaches it.

The body still streams: only its beginning is held, up to the file's first bytes (`HEAD_LIMIT`:
the form's small fields and the file part's headers come first), then handed on whole with the
rest as it arrives.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Collection
from dataclasses import dataclass

HEAD_LIMIT = 64 * 1024
"""The most of an upload held to find its file's type and first bytes."""
SIGNATURES: dict[str, tuple[bytes, ...]] = {
    "image/png": (b"\x89PNG\r\n\x1a\n",),
    "image/jpeg": (b"\xff\xd8\xff",),
    "image/gif": (b"GIF87a", b"GIF89a"),
    "image/webp": (b"RIFF",),
    "application/pdf": (b"%PDF-",),
}
"""What each type's bytes start with; a type without one is never taken."""
FILE_FIELD = "file"
_BOUNDARY = re.compile(r'boundary="?([^";]{1,70})"?', re.IGNORECASE)
_NAME = re.compile(rb'\bname="([^"]*)"', re.IGNORECASE)


@dataclass(frozen=True)
class UploadRefusal:
    """Why an upload is refused: its error code and the words shown to the player."""

    code: str
    message: str


def boundary_of(content_type: str | None) -> str | None:
    if not content_type or not content_type.lower().startswith("multipart/form-data"):
        return None
    found = _BOUNDARY.search(content_type)
    return found.group(1) if found else None


async def inspected(
    chunks: AsyncIterator[bytes], content_type: str | None, accepted: Collection[str]
) -> tuple[AsyncIterator[bytes], UploadRefusal | None]:
    """The upload as it will be sent (its held beginning, then the rest), or why it is refused."""
    boundary = boundary_of(content_type)
    if boundary is None:
        return chunks, UploadRefusal("UNSUPPORTED_UPLOAD", "Send the document as multipart/form-data")
    held = b""
    async for chunk in chunks:
        held += chunk
        verdict = _verdict(held, boundary.encode("latin-1"), accepted)
        if verdict is not _UNDECIDED:
            return _replayed(held, chunks), verdict
        if len(held) > HEAD_LIMIT:
            break
    return _replayed(held, chunks), _verdict(held, boundary.encode("latin-1"), accepted, final=True)


_UNDECIDED = UploadRefusal("", "")


def _verdict(held: bytes, boundary: bytes, accepted: Collection[str], final: bool = False) -> UploadRefusal | None:
    """None (take it), a refusal, or `_UNDECIDED` while the file's first bytes have not come."""
    delimiter = b"--" + boundary
    for part in held.split(delimiter)[1:]:
        head, sep, data = part.partition(b"\r\n\r\n")
        names = _NAME.findall(head)
        if not sep or not names or names[0].decode("latin-1") != FILE_FIELD:
            continue
        declared = _header(head, b"content-type")
        if declared not in accepted or declared not in SIGNATURES:
            return UploadRefusal("UNSUPPORTED_FILE", "Upload a JPEG, PNG or PDF file")
        signatures = SIGNATURES[declared]
        if len(data) < max(len(s) for s in signatures) and not final:
            return _UNDECIDED
        if not any(data.startswith(signature) for signature in signatures):
            return UploadRefusal("UNSUPPORTED_FILE", "The file is not the kind of document it says it is")
        return None
    return UploadRefusal("NO_FILE", "Choose a file to upload") if final else _UNDECIDED


def _header(head: bytes, name: bytes) -> str:
    for line in head.split(b"\r\n"):
        key, sep, value = line.partition(b":")
        if sep and key.strip().lower() == name:
            return value.split(b";")[0].strip().lower().decode("latin-1")
    return ""


async def _replayed(held: bytes, rest: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    if held:
        yield held
    async for chunk in rest:
        yield chunk
