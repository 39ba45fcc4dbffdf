"""Signing in and out in a browser: a token, a password or a one-time link once, then the session
cookie (``service.web.session``).

``GET /signin`` shows the forms: a member's league, name and password (chosen on joining, or on
their page), and the token (for programs' holders, and links an admin hands out).
``GET /signin?token=...`` (a link an admin hands out) only offers the token: it is kept in the
sealed cookie and the browser is sent to ``/signin``, an address without the token (out of the
history and of later ``Referer`` headers), whose form says whom the link signs in and signs in
when its button is pressed. A link never signs in by itself: another site could otherwise sign a
visitor in as the site's own player, and the visitor's entries would be theirs.
``POST /signin`` is the token form (a token typed, else the one offered), ``POST
/signin/password`` the password form; ``POST /signout`` ends the session, on the server too.

``/signin/link/{code}`` is a one-time sign-in link (``service.usecases.signins``): its ``GET``
only shows whom it signs in and a button (so a link preview does not spend it), its ``POST``
spends it and signs in. A password or a link signs in with a new token made for the browser
(listed among the player's tokens). Every post needs the session's form token. A refusal (a
mistyped token, a wrong password, a spent link) answers the page again in the reader's language,
with the refusal's status: a wrong password says nothing of whether the name exists.
"""

from typing import Annotated, Any
from uuid import UUID

import anyio.to_thread
from litestar import Controller, Request, get, post
from litestar.params import Parameter
from litestar.response import Redirect, Template

from service.auth.peer import client_address
from service.domain.errors import RuleError
from service.domain.roles import Actor
from service.usecases.queries.admin_lists import told_apart
from service.usecases.queries.leagues import to_sign_in
from service.usecases.queries.players import name_of
from service.usecases.refusals import status_of
from service.usecases.services import Services
from service.usecases.signins import PasswordSignIn, link_holder, sign_in_with_password, use_signin_link
from service.web.render import Page, page_for
from service.web.rule_words import ruleset_name
from service.web.session import (
    OFFERED_FIELD,
    checked_form,
    form_token,
    kept,
    offer,
    offered,
    sign_in,
    sign_out,
)

LinkCode = Annotated[str, Parameter(description="the sign-in link's code")]


def _home_of(actor: Actor) -> str:
    return f"/web/players/{actor.id}" if actor.role == "player" else "/"


def _address(request: Request[Any, Any, Any]) -> str:
    services: Services = request.app.state.services
    return client_address(request, services.settings.trusted_proxies)


async def _form_page(
    request: Request[Any, Any, Any], page: Page, status: int = 200, **context: Any
) -> Template:
    services: Services = request.app.state.services
    found = await offered(request)
    name = None
    if found is not None:
        name = await anyio.to_thread.run_sync(name_of, services, *found)
    leagues = await anyio.to_thread.run_sync(to_sign_in, services)
    answer = page.render(
        "signin.html",
        form_csrf=form_token(request),
        offered=None if found is None else found[0],
        offered_name=name,
        # two leagues of one name told apart by their rulesets (or short ids): a member picks theirs
        leagues=list(
            zip(
                (league.league_id for league in leagues),
                told_apart(
                    leagues, lambda league: league.name, lambda league: ruleset_name(page._, league.ruleset)
                ),
                strict=True,
            )
        ),
        **context,
    )
    answer.status_code = status
    return answer


def _league_id(form: dict[str, str]) -> UUID:
    try:
        return UUID(form.get("league_id", ""))
    except ValueError as error:
        raise RuleError("malformed_request", why="choose_list", name="league_id") from error


class SignInPage(Controller):
    @get("/signin", name="web-signin")
    async def form(
        self, request: Request[Any, Any, Any], token: Annotated[str | None, Parameter()] = None
    ) -> Template | Redirect:
        if token:
            await offer(request, token)
            return Redirect("/signin")
        return await _form_page(request, await page_for(request))

    @post("/signin", name="web-signin-post", status_code=303)
    async def sign_in(self, request: Request[Any, Any, Any]) -> Redirect | Template:
        form = await checked_form(request)
        token = form.get("token", "").strip() or kept(request).get(OFFERED_FIELD) or ""
        try:
            actor = await sign_in(request, token)
        except RuleError as refused:
            page = await page_for(request)
            return await _form_page(
                request, page, status_of(refused.code), refusal=refused, form_name="token"
            )
        return Redirect(_home_of(actor), status_code=303)

    @post("/signin/password", name="web-signin-password", status_code=303)
    async def sign_in_by_password(self, request: Request[Any, Any, Any]) -> Redirect | Template:
        form = await checked_form(request)
        services: Services = request.app.state.services
        try:
            data = PasswordSignIn(
                league_id=_league_id(form), name=form.get("name", ""), password=form.get("password", "")
            )
            done = await anyio.to_thread.run_sync(sign_in_with_password, services, data, _address(request))
        except RuleError as refused:
            page = await page_for(request)
            return await _form_page(
                request,
                page,
                status_of(refused.code),
                refusal=refused,
                form_name="password",
                league_id=form.get("league_id", ""),
                sent_name=form.get("name", ""),
            )
        return Redirect(_home_of(await sign_in(request, done.issued.token, own=True)), status_code=303)

    @get("/signin/link/{code:str}", name="web-signin-link")
    async def link(self, request: Request[Any, Any, Any], code: LinkCode) -> Template:
        page = await page_for(request)
        services: Services = request.app.state.services
        try:
            name = await anyio.to_thread.run_sync(link_holder, services, code, _address(request))
        except RuleError as refused:
            return _link_page(page, status_of(refused.code), refusal=refused)
        return _link_page(page, holder=name, code=code)

    @post("/signin/link/{code:str}", name="web-signin-link-post", status_code=303)
    async def use_link(self, request: Request[Any, Any, Any], code: LinkCode) -> Redirect | Template:
        await checked_form(request)
        services: Services = request.app.state.services
        try:
            done = await anyio.to_thread.run_sync(use_signin_link, services, code, _address(request))
        except RuleError as refused:
            return _link_page(await page_for(request), status_of(refused.code), refusal=refused)
        return Redirect(_home_of(await sign_in(request, done.issued.token, own=True)), status_code=303)

    @post("/signout", name="web-signout", status_code=303)
    async def sign_out(self, request: Request[Any, Any, Any]) -> Redirect:
        await checked_form(request)
        await sign_out(request)
        return Redirect("/", status_code=303)


def _link_page(page: Page, status: int = 200, **context: Any) -> Template:
    answer = page.render("signin_link.html", form_csrf=form_token(page.request), **context)
    answer.status_code = status
    return answer
