"""The state the instances share: sessions, the content cache, joined flights, idempotency
records, rate limits and presence, over one store (`store/`: process memory or Redis)."""
