"""The handlers' parameters the app's dependencies fill (``service.http.api``): the services
(``service.usecases.services``), the request's actor, the signed-in caller (with a write's
``Idempotency-Key``: the writer) and its token's credential, and a read with its ``?after=``."""

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


@dataclass(frozen=True, slots=True)
class Reading:
    """A read of the read models with its ``?after=`` (a log position; None: none sent), which every
    query takes last: it waits until the read models have applied it."""

    services: Services
    after: int | None

    def run(self, query: Callable[[Services, *Args, int | None], Result], *args: *Args) -> Result:
        return query(self.services, *args, self.after)


ServicesDep = NamedDependency[Services]
CallerDep = NamedDependency[Caller]  # on a route with opt=SIGNED_IN only
# as CallerDep; a handler takes it last: the document names the header after the path's parameters
WriterDep = NamedDependency[Writer]
# a handler takes it last: the document names ``after`` after the path's parameters
ReadingDep = NamedDependency[Reading]
OptionalActorDep = NamedDependency[Actor | None]  # None: an anonymous request
BearerDep = NamedDependency[UUID | None]  # the credential of the request's token; None: none, or the env's
