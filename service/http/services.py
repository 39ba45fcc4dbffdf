"""The handlers' parameters the app's dependencies fill (``service.http.api``): the services
(``service.usecases.services``), the request's actor and its token's credential."""

from uuid import UUID

from litestar.di import NamedDependency

from service.domain.roles import Actor
from service.usecases.services import Services

ServicesDep = NamedDependency[Services]
ActorDep = NamedDependency[Actor]  # on a route with opt=SIGNED_IN: never None
OptionalActorDep = NamedDependency[Actor | None]  # None: an anonymous request
BearerDep = NamedDependency[UUID | None]  # the credential of the request's token; None: none, or the env's
