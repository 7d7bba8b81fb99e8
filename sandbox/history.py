"""(being written)"""

from __future__ import annotations

from sandbox.platform import Registry

routes = Registry()
