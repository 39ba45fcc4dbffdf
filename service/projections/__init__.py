"""Read models fed from the application's notification log.

One projection, ``views``: per game the public table, each seat's hand and
legal moves, the match totals with a row per round; per league the standings;
per player the history. (Tournaments are not projected yet.)

- ``models``: what the reads answer (the contract with ``service.http``);
- ``reader.ReadModels``: the reads, with the position they were read at and ``wait_for``;
- ``runner``: ``start_projections`` (a thread of this process), ``run_projections``
  (a process of its own), ``rebuild``;
- ``cli``: ``maumau projections run | rebuild [NAME] | status``;
- inside: ``source`` reads the log, ``projection`` folds it in batches (``fold`` per game,
  ``render`` into documents, ``standings`` ranks), ``store`` writes rows and tracking at once.
"""
