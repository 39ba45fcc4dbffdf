"""Tournament formats, one module each, registered by name in ``FORMATS``.

A format (``base.TournamentFormat``) decides which plans it plays (``check_rounds``), how many
rounds it plays, how it pairs a round, who a round puts out, when the tournament is over and who
won it, and whether an entrant may drop out; ``service.domain.tournament`` asks the plan's format
and does everything else the same way for all of them. Adding one is its module and its line
below (docs/tournaments.md, "How to add a tournament format").
"""

from service.domain.formats.base import MAX_ROUNDS, Draw, PairedRound, TournamentFormat
from service.domain.formats.double_round_robin import DOUBLE_ROUND_ROBIN
from service.domain.formats.round_robin import ROUND_ROBIN
from service.domain.formats.single_elimination import SINGLE_ELIMINATION
from service.domain.formats.swiss import SWISS

# the format's name -> its unit; in this order in refusals and in the API's list of formats
FORMATS: dict[str, TournamentFormat] = {
    unit.name: unit for unit in (ROUND_ROBIN, DOUBLE_ROUND_ROBIN, SWISS, SINGLE_ELIMINATION)
}

__all__ = ["FORMATS", "MAX_ROUNDS", "Draw", "PairedRound", "TournamentFormat"]
