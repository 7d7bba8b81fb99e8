"""The process's runtime, under every other layer: its life (`lifecycle`: the tasks it spawned,
the drain), its metrics (`metrics`, Prometheus) and its traces (`tracing`, OpenTelemetry).
Whatever a layer does, it may count it, trace it, or hand a task to the lifecycle."""
