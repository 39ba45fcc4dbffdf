"""The codes handed out to people, an invitation's and a sign-in link's: ``<prefix>_<the
aggregate's id, 32 hex digits>_<secret>``, like a token. The id names the one aggregate to load;
the shape is checked before anything is loaded, and a code not shaped like one is not found."""

import hmac
import re
from uuid import UUID, uuid4

from service.domain.credential import hash_secret, new_secret
from service.domain.errors import RuleError


def code_pattern(prefix: str) -> str:
    return rf"^{prefix}_[0-9a-f]{{32}}_[A-Za-z0-9_-]{{43}}$"


def format_code(prefix: str, aggregate_id: UUID, secret: str) -> str:
    return f"{prefix}_{aggregate_id.hex}_{secret}"


def parse_code(prefix: str, code: object, not_found: str) -> tuple[UUID, str]:
    """The id and the secret of a code; ``not_found`` (the refusal's code) if it is not shaped like one."""
    if not isinstance(code, str) or re.fullmatch(code_pattern(prefix), code) is None:
        raise RuleError(not_found)
    _, hex_id, secret = code.split("_", 2)
    return UUID(hex=hex_id), secret


def new_code(prefix: str) -> tuple[UUID, str, str]:
    """A new aggregate's id, its code (handed out once, never stored) and the code's secret's hash."""
    aggregate_id, secret = uuid4(), new_secret()
    return aggregate_id, format_code(prefix, aggregate_id, secret), hash_secret(secret)


def matches(secret: str, code_hash: str) -> bool:
    """The secret is the one whose hash was stored (compared in constant time)."""
    return hmac.compare_digest(hash_secret(secret), code_hash)
