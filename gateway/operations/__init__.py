"""Operations: the process's life (serving, workers, drain), logs, metrics, tracing, health,
and the admin listener."""
