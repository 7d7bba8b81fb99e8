"""The upstream side: one call to the platform as a value (`call`) and the caller that runs it
(`caller`: deadline, attempts, streaming, the outcome it came to), over connection pools per
origin (`transport/`, `pools`), with retries, their budget and breakers (`resilience`, by the
timings of `gateway.config.timings`); and the platform's `/bff/*` calls (`platform`)."""
