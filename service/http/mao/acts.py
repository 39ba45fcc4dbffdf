"""What every act's route says of itself: a signed-in asker, an answer (no resource made), its
refusals; the acts are the use cases' (``service.usecases.mao``)."""

from typing import Any

from service.http.auth import SIGNED_IN
from service.http.errors import problems
from service.http.security import BEARER

ACT_ROUTE: dict[str, Any] = {
    "opt": SIGNED_IN,
    "responses": problems(403, 404, 409, 415, 422),
    "security": BEARER,
    "status_code": 200,
    "sync_to_thread": True,
}
