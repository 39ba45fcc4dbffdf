"""The read models, one module per view, and the registry that composes them.

Each module here is one view: its tables, statements, rows, the fold of the event types it reads
and its queries (``base``). ``VIEWS`` is the order they are folded, flushed and written in: a view
fed by another's state comes after it (the games read the tournaments' turn clocks; the webhooks
read the games and tournaments as folded), but the ratings, which read no event, come before the
games: they rate the games finished in the batch before the games' rows are drawn (a rated game's
row says it is rated). ``Queries`` is every view's queries, which the store
(``store.Views``) answers.

Adding a view: a module here with its ``VIEW`` and ``Queries``, and its two lines below. (``base``
and ``changes``, the turns a change to a game leaves, are what views share.)
"""

from service.projections.views import (
    games,
    leagues,
    mao,
    notices,
    players,
    ratings,
    referees,
    tournaments,
    webhooks,
)
from service.projections.views.base import View

VIEWS: tuple[View, ...] = (
    players.VIEW,
    referees.VIEW,
    leagues.VIEW,
    tournaments.VIEW,
    ratings.VIEW,
    games.VIEW,
    mao.VIEW,
    webhooks.VIEW,
    notices.VIEW,
)


class Queries(
    players.Queries,
    referees.Queries,
    leagues.Queries,
    tournaments.Queries,
    ratings.Queries,
    games.Queries,
    mao.Queries,
    webhooks.Queries,
    notices.Queries,
):
    """Every view's queries."""
