"""What an instance tells of itself, beside serving: its logs and access lines (`observability`),
the console's charts (`series`: requests, errors, latency and cache hits per skin), its health
(`health`: the store and the upstreams, for probes and the console) and the instances' registry
(`instances`: every live instance and the configuration version it runs)."""
