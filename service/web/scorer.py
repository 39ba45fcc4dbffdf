"""The scorer's page: a round of a table played with real cards entered, confirmed or disputed from a
phone at the table (docs/web.md, "The scorer's page").

The forms post here with the session's form token, and each post calls the same use case as its API
route (``service.usecases.rounds.enter_round``, ``confirm_round``,
``service.usecases.disputes.raise_dispute``), with the same access check: the page is the API for a
person without a token in their hand. Posting to the page rather than to the API with ``fetch``
keeps the bearer token out of every script (the session cookie is HttpOnly) and lets the form work
with no script at all. A refusal answers the page again with the refusal in words and the form as it
was typed; nothing is stored.
"""

import re
import secrets
from collections.abc import Callable
from typing import Any
from uuid import UUID

import anyio.to_thread
from litestar import Controller, Request, get, post
from litestar.response import Redirect, Template

from service.domain.cards import CARD_COUNT, CARD_PATTERN
from service.domain.errors import RuleError
from service.domain.roles import Actor
from service.usecases.disputes import DisputeCreate, raise_dispute
from service.usecases.queries import games
from service.usecases.rounds import (
    MOST_POINTS,
    ConfirmationCreate,
    RoundCreate,
    check_scorer,
    confirm_round,
    enter_round,
)
from service.usecases.services import Services
from service.web.i18n import Translate
from service.web.params import GameId, RoundNo
from service.web.render import Flag, Page, page_for
from service.web.session import checked_form
from service.web.words import rank_name, suit_name

CARD = re.compile(CARD_PATTERN)
SEPARATORS = re.compile(r"[\s,;]+")
MOST_MISSED = CARD_COUNT  # as the API's body: no round has more missed calls than cards
NOBODY = "none"  # the winner field's value when the round stopped with no winner
# what a form asks of the application, as the signed-in actor: it raises ``RuleError`` on a refusal
Change = Callable[[Services, Actor, UUID, dict[str, str]], None]


def _number(text: str, most: int) -> int:
    """A field as the API's body bounds it (``RoundCreate``): empty is 0."""
    text = text.strip()
    if not text:
        return 0
    if not text.isdigit() or int(text) > most:
        raise RuleError("malformed_request", why="not_whole_number", text=text, most=most)
    return int(text)


def _cards(text: str) -> list[str]:
    cards = [card.upper() for card in SEPARATORS.split(text.strip()) if card]
    for card in cards:
        if not CARD.match(card):
            raise RuleError("malformed_card", why="not_card", card=card)
    return cards


def entry_of(form: dict[str, str], seats: int) -> dict[str, Any]:
    """The form as the arguments of ``enter_round``; a field no entry could hold is refused."""
    chosen = form.get("winner", "")
    if chosen == NOBODY:
        winner = None
    elif chosen.isdigit():
        winner = int(chosen)
    else:
        raise RuleError("malformed_request", why="say_who_went")
    entry: dict[str, Any] = {"winner": winner, "hands": None, "points": None}
    if form.get("by") == "cards":
        entry["hands"] = [_cards(form.get(f"cards-{seat}", "")) for seat in range(seats)]
    else:
        entry["points"] = [_number(form.get(f"points-{seat}", ""), MOST_POINTS) for seat in range(seats)]
    missed = [_number(form.get(f"missed-{seat}", ""), MOST_MISSED) for seat in range(seats)]
    entry["missed_calls"] = missed if any(missed) else None
    return entry


def _version(form: dict[str, str]) -> int | None:
    seen = form.get("version", "")
    return int(seen) if seen.isdigit() else None


def _key(form: dict[str, str]) -> str | None:
    return form.get("key") or None


def _enter(services: Services, actor: Actor, game_id: UUID, form: dict[str, str]) -> None:
    facts = games.facts(services, game_id)
    check_scorer(services, actor, facts)  # who may, before what they typed is read
    entry = RoundCreate(**entry_of(form, len(facts.seats)), version=_version(form))
    enter_round(services, actor, game_id, entry, _key(form))


def _confirm(services: Services, actor: Actor, game_id: UUID, round_no: int, form: dict[str, str]) -> None:
    confirm_round(services, actor, game_id, round_no, ConfirmationCreate(version=_version(form)), _key(form))


def _dispute(services: Services, actor: Actor, game_id: UUID, form: dict[str, str]) -> None:
    about = form.get("about", "")
    dispute = DisputeCreate(
        reason=form.get("reason", "").strip(),
        about=int(about) if about.isdigit() else None,
        version=_version(form),
    )
    raise_dispute(services, actor, game_id, dispute, _key(form))


def _scoring(
    services: Services, actor: Actor | None, game_id: UUID, page: Page, typed: dict[str, str] | None
) -> dict[str, Any]:
    found = games.scoring(services, actor, game_id)
    _ = page._
    return {
        "table": found.table,
        "allowed": found.allowed,
        "sheet": found.sheet,
        "seat": found.seat,
        "missed_typed": any(
            value.strip() for name, value in (typed or {}).items() if name.startswith("missed-")
        ),
        "key": secrets.token_urlsafe(16),  # one per form shown: a second tap of it stores nothing more
        **card_code_words(_),
    }


def card_code_words(_: Translate) -> dict[str, Any]:
    """The letters of the card-code field's help (``templates/round_entry.html``), in words."""
    return {
        "ranks": [(rank, rank_name(_, rank)) for rank in ("J", "Q", "K", "A")],
        "suits": [(suit, suit_name(_, suit)) for suit in "CDHS"],
    }


class ScorerPage(Controller):
    path = "/web/games/{game_id:uuid}/score"

    async def _answer(
        self,
        request: Request[Any, Any, Any],
        game_id: UUID,
        refusal: RuleError | None = None,
        typed: dict[str, str] | None = None,
        disputed: bool = False,
    ) -> Template:
        page = await page_for(request)
        found = await anyio.to_thread.run_sync(
            _scoring, request.app.state.services, page.actor, game_id, page, typed
        )
        answer = page.render("score.html", refusal=refusal, typed=typed or {}, disputed=disputed, **found)
        if refusal is not None:
            answer.status_code = 422
        return answer

    @get(name="web-score")
    async def form(
        self, request: Request[Any, Any, Any], game_id: GameId, disputed: Flag = False
    ) -> Template:
        return await self._answer(request, game_id, disputed=disputed)

    @post(name="web-score-enter", status_code=303)
    async def enter(self, request: Request[Any, Any, Any], game_id: GameId) -> Template | Redirect:
        return await self._posted(request, game_id, _enter)

    @post("/rounds/{round_no:int}/confirmation", name="web-score-confirm", status_code=303)
    async def confirm(
        self, request: Request[Any, Any, Any], game_id: GameId, round_no: RoundNo
    ) -> Template | Redirect:
        return await self._posted(
            request,
            game_id,
            lambda services, actor, game, form: _confirm(services, actor, game, round_no, form),
        )

    @post("/disputes", name="web-score-dispute", status_code=303)
    async def dispute(self, request: Request[Any, Any, Any], game_id: GameId) -> Template | Redirect:
        # back with ``?disputed=1``: the page says the dispute was taken, whatever the table shows yet
        return await self._posted(request, game_id, _dispute, "?disputed=1")

    async def _posted(
        self, request: Request[Any, Any, Any], game_id: UUID, change: Any, back: str = ""
    ) -> Template | Redirect:
        form = await checked_form(request)
        page = await page_for(request)
        if page.actor is None:
            return await self._answer(request, game_id)
        try:
            await anyio.to_thread.run_sync(change, request.app.state.services, page.actor, game_id, form)
        except RuleError as refused:
            return await self._answer(request, game_id, refusal=refused, typed=form)
        return Redirect(f"/web/games/{game_id}/score{back}", status_code=303)
