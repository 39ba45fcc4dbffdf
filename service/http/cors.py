"""Cross-Origin Resource Sharing: which other sites' pages may call the API from a browser.

Off unless ``MAUMAU_CORS_ORIGINS`` names origins. A club's own site then reads its standings or lets
its members play with their bearer token; credentials (the pages' session cookie) are never allowed
across origins, so another site can act for nobody who is signed in to our pages.
"""

from litestar.config.cors import CORSConfig

# what a client of the API sends beyond the simple headers: its token, a JSON body, a write's key and
# a stream's resume point
ALLOWED_HEADERS = ["Authorization", "Content-Type", "Idempotency-Key", "Last-Event-ID"]
EXPOSED_HEADERS = ["X-Request-Id"]  # to quote when a club's site reports a problem
PREFLIGHT_SECONDS = 600  # how long a browser may keep a preflight's answer


def cors_config(origins: tuple[str, ...]) -> CORSConfig | None:
    if not origins:
        return None
    return CORSConfig(
        allow_origins=list(origins),
        allow_methods=["GET", "POST", "PUT", "PATCH", "DELETE"],
        allow_headers=ALLOWED_HEADERS,
        expose_headers=EXPOSED_HEADERS,
        allow_credentials=False,
        max_age=PREFLIGHT_SECONDS,
    )
