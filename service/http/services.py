"""The handlers' parameters the app's dependencies fill (``service.http.api``): the services
(``service.usecases.services``), the request's actor, the signed-in caller and its token's credential."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Concatenate, ParamSpec, TypeVar, TypeVarTuple
from uuid import UUID

from litestar.di import NamedDependency

from service.domain.roles import Actor
from service.usecases.services import Services

Input = ParamSpec("Input")
Result = TypeVar("Result")
Args = TypeVarTuple("Args")


@dataclass(frozen=True, slots=True)
class Caller:
    """A signed-in request's actor with the services: what every use case takes first."""

    services: Services
    actor: Actor

    def run(
        self,
        use_case: Callable[Concatenate[Services, Actor, Input], Result],
        *args: Input.args,
        **kwargs: Input.kwargs,
    ) -> Result:
        return use_case(self.services, self.actor, *args, **kwargs)


@dataclass(frozen=True, slots=True)
class Writer:
    """A signed-in request's write with its ``Idempotency-Key`` (None: none sent), which every
    use case that writes takes last."""

    services: Services
    actor: Actor
    key: str | None

    def run(self, use_case: Callable[[Services, Actor, *Args, str | None], Result], *args: *Args) -> Result:
        return use_case(self.services, self.actor, *args, self.key)


ServicesDep = NamedDependency[Services]
CallerDep = NamedDependency[Caller]  # on a route with opt=SIGNED_IN only
# as CallerDep; a handler takes it last: the document names the header after the path's parameters
WriterDep = NamedDependency[Writer]
OptionalActorDep = NamedDependency[Actor | None]  # None: an anonymous request
BearerDep = NamedDependency[UUID | None]  # the credential of the request's token; None: none, or the env's
