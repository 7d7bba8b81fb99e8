"""The wire's vocabulary, shared by every layer that answers a browser: the request and answer
as ASGI carries them, the one error shape, the browser's cookies, XSRF and device tokens, and
who a request comes from."""
