"""The upstream side: connection pools per origin (`transport/`), timeouts, retries and
breakers, and what one call to the platform came to."""
