"""A league's time zone: an IANA name (``Europe/Berlin``) that ``zoneinfo`` knows, "UTC" unless set.

Stored times stay in UTC; the zone says where the club meets, so a calendar feed
(``X-WR-TIMEZONE``) and pages can show its local times. Refusal: ``invalid_time_zone``.
"""

from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from service.domain.errors import RuleError

DEFAULT_TIME_ZONE = "UTC"
# an IANA name is short; a longer one is refused before zoneinfo goes looking for a file
_LONGEST = 64


def checked_time_zone(name: Any) -> str:
    """``name`` if it is an IANA time zone this machine's zoneinfo knows, else ``invalid_time_zone``."""
    refused = RuleError("invalid_time_zone")
    if type(name) is not str or not 0 < len(name) <= _LONGEST:
        raise refused
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError) as error:  # ValueError: a path such as ../x
        raise refused from error
    return name
