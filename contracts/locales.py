"""The languages of the product: one list for the gateway, the sandbox and the SPA.

Adding a language is adding it to `Locale` (the SPA's `LOCALES` is generated from it by
`python -m contracts export`), plus its translation files: `spa/src/locales/<lang>/`,
`spa/src/console/locales/<lang>/` and `sandbox/texts/<lang>.json`. Tests fail while any
of them is missing or lacks a key.
"""

from __future__ import annotations

from typing import Literal, get_args

Locale = Literal["es", "pt", "en"]
"""The languages, in the order the language switchers show them."""
LOCALES: tuple[Locale, ...] = get_args(Locale)
DEFAULT_LOCALE: Locale = "es"
