"""The state the instances share: sessions (and this instance's replicas of them), the content
cache, joined flights, idempotency records, rate limits, presence, and what one call
to the platform came to, over one store (`gateway.store`: process memory or Redis)."""
