"""Who acts: a role and an id. The HTTP layer authenticates; the domain checks the role.

- ``player``: moves for their own seat only; may raise a dispute at their table.
- ``referee`` and ``admin``: may move for any seat (re-creating a table game),
  create a game with an explicit deck order, raise disputes and give rulings.
- ``system``: the service itself (bots, workers, timeouts): moves for any seat.
"""

from typing import Literal

import msgspec

Role = Literal["admin", "referee", "player", "system"]


class Actor(msgspec.Struct, frozen=True, array_like=True):
    role: Role
    id: str = ""  # a player's id, a referee's name; empty for the system

    @property
    def officiates(self) -> bool:
        """Referees and admins may rule, deal explicit decks and move for any seat."""
        return self.role == "referee" or self.role == "admin"


SYSTEM = Actor("system")
