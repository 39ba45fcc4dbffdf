"""The Mao judge's console: the judge's view (the rule, the clauses in force, every hand, the stock),
the whole log, the replay's penalties with why each was given, and the judge's forms: write the
next round's rule or only check it, deal (the server's shuffle, or the officials' own deck of 52),
approve or refuse a proposal.

Its checks are the API's: the view, the log and the replay are the officials'
(``GET /mao-games/{id}/judge``, ``/events``, ``/replay``); the forms are the judge's
(``mao_policy.check_judge``: the officials of a human-judged match, and a judge who plays, who gets
the forms and the public table only). Anyone else gets a page that says so (403) when a browser asks,
and the problem otherwise. A refused act changes nothing and is answered with the console again and
the refusal in the page's language.
"""

import re
from collections.abc import Mapping
from typing import Annotated, Any
from uuid import UUID, uuid4

import anyio.to_thread
from litestar import Controller, Request, get, post
from litestar.params import Parameter
from litestar.response import Redirect, Template

from service.domain.errors import RuleError
from service.domain.mao.commands import ApproveRule, RefuseRule, WriteRule
from service.domain.mao.replay import Step
from service.domain.roles import Actor
from service.usecases.mao import deal, judge_act
from service.usecases.queries import mao
from service.usecases.refusals import status_of
from service.usecases.services import Services
from service.web.i18n import Translate
from service.web.mao_table import STREAMED, table_data
from service.web.mao_words import penalty_words
from service.web.params import GameId
from service.web.render import Flag, Page, page_for
from service.web.session import checked_form

ACTS = frozenset({"rule", "check", "deal", "approve", "refuse"})
DONE = frozenset(ACTS - {"check"})


def _wants_html(request: Request[Any, Any, Any]) -> bool:
    return "text/html" in request.headers.get("accept", "")


def _refused(page: Page, game_id: UUID) -> Template:
    if not _wants_html(page.request):
        raise RuleError("forbidden", why="match_officials")
    answer = page.render("mao_judge_refused.html", game_id=game_id, code="forbidden")
    answer.status_code = 403
    return answer


def _why(_: Translate, step: Step, names: list[str]) -> dict[str, Any]:
    why = step.why
    assert why is not None
    return {
        "number": step.number,
        "who": names[why.seat],
        "reason": penalty_words(_, why.reason),
        "card": why.card,
        "top": why.top,
        "in_force": why.in_force,
        "rule": why.rule,
        "words": why.words,
    }


def _console(services: Services, actor: Actor | None, game_id: UUID, _: Translate) -> dict[str, Any] | None:
    """The console's data; None for anyone who may neither see the judge's view nor judge."""
    found = mao.table(services, actor, game_id)
    if actor is None or not (found.official or found.judges):
        return None
    if not found.official:  # a judge who plays: the forms, and the table as their seat sees it
        view = mao.seat_view_at(services, actor, found, None)
        return {**table_data(_, found, view), "judge": None, "whys": [], "streamed": STREAMED}
    judge = mao.judges_view_at(services, actor, found)
    data = table_data(_, found, mao.public_view(found.game))
    steps = mao.replay_at(services, actor, found)
    whys = [_why(_, step, data["names"]) for step in steps if step.why is not None]
    return {**data, "judge": judge, "whys": list(reversed(whys)), "streamed": STREAMED}


def _deck(form: Mapping[str, str]) -> list[str] | None:
    """The officials' own deck, its 52 cards separated by spaces or commas; None: the server shuffles."""
    cards = [card for card in re.split(r"[\s,]+", form.get("deck", "")) if card]
    return cards or None


def _act(services: Services, actor: Actor, game_id: UUID, form: Mapping[str, str]) -> str | None:
    """Do the judge's act the form asks; a checked rule's text (as it would be written)."""
    kind, key = form.get("act", ""), form.get("key") or None
    text = form.get("rule", "").strip()
    if kind == "check":
        return mao.check_rule(services, actor, game_id, text)
    if kind == "rule":
        judge_act(services, actor, game_id, lambda: WriteRule(text), key, ("rule", text))
    elif kind == "deal":
        cards = _deck(form)
        deal(services, actor, game_id, cards, key, ("deals", cards))
    elif kind == "approve":
        judge_act(services, actor, game_id, ApproveRule, key, ("approval",))
    elif kind == "refuse":
        judge_act(services, actor, game_id, RefuseRule, key, ("refusal",))
    else:
        raise RuleError("malformed_request", why="move_not", kinds=sorted(ACTS))
    return None


class MaoJudgeConsole(Controller):
    path = "/web/mao-games"

    @get("/{game_id:uuid}/judge", name="web-mao-judge")
    async def console(
        self,
        request: Request[Any, Any, Any],
        game_id: GameId,
        done: Annotated[str, Parameter()] = "",
        fragment: Flag = False,
    ) -> Template:
        page = await page_for(request)
        data = await anyio.to_thread.run_sync(
            _console, request.app.state.services, page.actor, game_id, page._
        )
        if data is None:
            return _refused(page, game_id)
        template = "mao_judge_live.html" if fragment else "mao_judge.html"
        return page.render(
            template,
            **data,
            done=done if done in DONE else "",
            refusal=None,
            checked=None,
            typed="",
            key=uuid4(),
        )

    @post("/{game_id:uuid}/judge", name="web-mao-judge-act", status_code=200)
    async def act(self, request: Request[Any, Any, Any], game_id: GameId) -> Template | Redirect:
        page = await page_for(request)
        services: Services = request.app.state.services
        form = await checked_form(request)  # before anything else: a cross-site post learns nothing
        data = await anyio.to_thread.run_sync(_console, services, page.actor, game_id, page._)
        if data is None or page.actor is None:
            return _refused(page, game_id)
        refusal, checked, status = None, None, 200
        try:
            checked = await anyio.to_thread.run_sync(_act, services, page.actor, game_id, form)
        except RuleError as error:
            if not _wants_html(request):
                raise
            refusal, status = error, status_of(error.code)
        if refusal is None and checked is None:
            return Redirect(f"/web/mao-games/{game_id}/judge?done={form.get('act')}", status_code=303)
        data = await anyio.to_thread.run_sync(_console, services, page.actor, game_id, page._)
        assert data is not None
        answer = page.render(
            "mao_judge.html",
            **data,
            done="",
            refusal=refusal,
            checked=checked,
            typed=form.get("rule", ""),
            key=uuid4(),
        )
        answer.status_code = status
        return answer
