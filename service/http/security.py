"""The OpenAPI security requirements: a bearer token needed, or welcome but not needed."""

from litestar.openapi.spec import Components, SecurityRequirement, SecurityScheme

BEARER_SCHEME = "bearer"
BEARER: list[SecurityRequirement] = [{BEARER_SCHEME: []}]
# public routes: anonymous, or with a token for more
OPTIONAL_BEARER: list[SecurityRequirement] = [{}, {BEARER_SCHEME: []}]

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
