"""The workers: Celery tasks that start tournaments and rounds when due, play the bots' moves and run
out turn clocks (``workers.app``), the steps they run (``workers.conduct``), and ``maumau worker`` /
``maumau beat`` (``workers.cli``)."""
