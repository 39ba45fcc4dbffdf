"""The OpenAPI security requirements: a bearer token needed, or welcome but not needed."""

from litestar.openapi.spec import Components, SecurityScheme

BEARER_SCHEME = "bearer"
BEARER = [{BEARER_SCHEME: []}]
OPTIONAL_BEARER = [{}, {BEARER_SCHEME: []}]  # public routes: anonymous, or with a token for more

COMPONENTS = Components(
    security_schemes={
        BEARER_SCHEME: SecurityScheme(
            type="http",
            scheme="bearer",
            bearer_format="mm_<credential id>_<secret>",
            description="a token from POST /players, POST /referees or `maumau admin token`",
        )
    }
)
