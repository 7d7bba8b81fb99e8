"""OpenTelemetry tracing, optional and off by default (`OTEL_ENABLED=1`, extra `otel`).

The server span per request comes from Litestar's OpenTelemetry plugin; each upstream call
gets a client span and a `traceparent` header, so the platform's spans join the trace.
Spans carry the request id (`bff.request_id`); never headers, cookies or bodies.

Without a tracer provider given, the global one is used: the OpenTelemetry SDK configured
from `OTEL_*` variables (for instance by `opentelemetry-instrument`), or, if nothing set
one up, an SDK provider exporting over OTLP/HTTP to `OTEL_EXPORTER_OTLP_ENDPOINT`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from litestar.types import ASGIApp


class Tracing:
    def __init__(self, enabled: bool = False, tracer_provider: Any = None) -> None:
        self.enabled = enabled
        self._provider = tracer_provider
        self._tracer: Any = None
        if enabled:
            from opentelemetry import trace

            if tracer_provider is None:
                tracer_provider = self._provider = _global_provider()
            self._tracer = trace.get_tracer("casino-bff.gateway", tracer_provider=tracer_provider)

    def wrap(self, app: ASGIApp) -> ASGIApp:
        """`app` with a server span around each request (Litestar's OpenTelemetry middleware)."""
        if not self.enabled:
            return app
        from litestar.plugins.opentelemetry import OpenTelemetryConfig

        config = OpenTelemetryConfig(tracer_provider=self._provider, exclude_spans=["receive", "send"])
        wrapped: ASGIApp = config.middleware(app)
        return wrapped

    def tag(self, request_id: str, skin: str | None, route: str | None) -> None:
        """Names the request's server span after the route, with the request id."""
        if not self.enabled:
            return
        from opentelemetry import trace

        span = trace.get_current_span()
        span.set_attribute("bff.request_id", request_id)
        if skin:
            span.set_attribute("bff.skin", skin)
        if route:
            span.set_attribute("bff.route", route)

    @contextmanager
    def upstream(
        self, route: str, method: str, upstream: str, headers: dict[str, str], request_id: str = ""
    ) -> Iterator[Any]:
        """A client span around one upstream attempt; `traceparent` goes into `headers`. The span
        names the player's request (`request_id`) and, when it differs (a content call's own,
        made for its shared flight), the id the platform was sent."""
        if not self.enabled:
            with nullcontext() as nothing:
                yield nothing
            return
        from opentelemetry import propagate, trace

        with self._tracer.start_as_current_span(
            f"upstream {route}",
            kind=trace.SpanKind.CLIENT,
            attributes={
                "http.request.method": method,
                "bff.upstream": upstream,
                "bff.request_id": request_id or headers.get("x-request-id", ""),
                "bff.upstream_request_id": headers.get("x-request-id", ""),
            },
        ) as span:
            propagate.inject(headers)
            yield span

    @staticmethod
    def status(span: Any, code: int) -> None:
        if span is not None:
            span.set_attribute("http.response.status_code", code)


def _global_provider() -> Any:
    from opentelemetry import trace

    provider = trace.get_tracer_provider()
    if type(provider).__name__ != "ProxyTracerProvider":
        return provider
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    sdk = TracerProvider(resource=Resource.create({"service.name": "casino-bff"}))
    sdk.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    trace.set_tracer_provider(sdk)
    return sdk
