"""Tokens: an admin revokes one (a lost or leaked token); its holder may be given another."""

from litestar import Controller, delete

from service.http import credentials
from service.http.auth import admin_only
from service.http.errors import problems
from service.http.params import CredentialId
from service.http.security import BEARER
from service.http.services import ServicesDep


class TokenController(Controller):
    path = "/tokens"
    tags = ["tokens"]  # noqa: RUF012

    @delete(
        "/{credential_id:uuid}",
        operation_id="revokeToken",
        summary="Revoke a token (admin); it is refused from then on",
        guards=[admin_only],
        responses=problems(401, 403, 404, 409),
        security=BEARER,
        sync_to_thread=True,
    )
    def revoke(self, services: ServicesDep, credential_id: CredentialId) -> None:
        credentials.revoke(services.app, credential_id)
        services.auth.forget(credential_id)
