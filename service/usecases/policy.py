"""Who may do what: pure rules over the actor (and the facts a use case passes), raising the
refusal. The HTTP routes' checks (``service.http.auth``) and the use cases share them."""

from service.domain.errors import RuleError
from service.domain.roles import Actor


def check_admin(actor: Actor) -> None:
    if actor.role != "admin":
        raise RuleError("forbidden", "only an admin may do this")
