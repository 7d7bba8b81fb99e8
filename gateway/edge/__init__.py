"""The edge: what faces the browser. The guarded listener, the front door every request comes
through, and the gateway's own endpoints (`/bff/*`, the SPA) beside the proxied path."""
