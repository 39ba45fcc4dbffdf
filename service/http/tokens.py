"""A token revoked by its id: the use case is ``service.usecases.tokens.revoke_token``."""

from litestar import delete

from service.http.calls import calls
from service.http.controller import ApiController
from service.http.params import CredentialId
from service.http.routes import signed_in_route
from service.usecases import tokens


class TokenController(ApiController, path="/tokens", tag="tokens"):
    revoke = delete(
        "/{credential_id:uuid}",
        operation_id="revokeToken",
        summary="Revoke a token and every token made with it (an admin, or its holder)",
        **signed_in_route(403, 404, 409),
    )(calls(tokens.revoke_token, None, credential_id=CredentialId))
