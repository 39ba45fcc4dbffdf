"""What operators see: Prometheus metrics, structured logs with request ids, readiness.

- ``metrics``: the counters and histograms, ``task_ran`` for the workers, the exposition;
- ``logs``: the JSON or text log format, configured once per process;
- ``requests``: the ASGI wrapper that gives every request an id, a log line and its metrics;
- ``endpoint``: ``GET /metrics``;
- ``readiness``: the checks behind ``GET /ready``;
- ``tasks``: Celery's signals connected to the task metrics and the log format.
"""
