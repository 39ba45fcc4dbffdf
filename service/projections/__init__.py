"""Read models fed from the application's notification log.

One projection, ``views``: per game the public table (with the turn deadline
of a tournament table under a clock), each seat's hand and legal moves, the
match totals with a row per round; per league the standings; per player the
history and the next tournament table; per tournament the bracket (rounds,
tables, results, the ranking), and which tournaments are open (the workers'
tick reads it).

- ``models``: what the reads answer (the contract with ``service.http``);
- ``reader.ReadModels``: the reads, with the position they were read at and ``wait_for``;
- ``runner``: ``start_projections`` (a thread of this process), ``run_projections``
  (a process of its own), ``rebuild``;
- ``cli``: ``maumau projections run | rebuild [NAME] | status``;
- inside: ``source`` reads the log, ``projection`` folds it in batches through every view of
  ``views`` (one module per view: its tables, statements, fold and queries; ``fold`` per game,
  ``render`` into documents, ``standings`` ranks, ``tournaments`` folds and draws tournaments),
  ``store`` writes rows and tracking at once.
"""
