"""Signing in and out in a browser: a token once, then the session cookie (``service.web.session``).

``GET /signin`` shows the form; ``GET /signin?token=...`` (a link an admin hands out) only offers the
token: it is kept in the sealed cookie and the browser is sent to ``/signin``, an address without the
token (out of the history and of later ``Referer`` headers), whose form says whom the link signs in
and signs in when its button is pressed. A link never signs in by itself: another site could
otherwise sign a visitor in as the site's own player, and the visitor's entries would be theirs.
``POST /signin`` is the form (a token typed, else the one offered); ``POST /signout`` ends the
session, on the server too. Both posts need the session's form token.
"""

from typing import Annotated, Any

import anyio.to_thread
from litestar import Controller, Request, get, post
from litestar.params import Parameter
from litestar.response import Redirect, Template

from service.domain.roles import Actor
from service.usecases.queries.players import name_of
from service.web.render import page_for
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


def _home_of(actor: Actor) -> str:
    return f"/web/players/{actor.id}" if actor.role == "player" else "/"


class SignInPage(Controller):
    @get("/signin", name="web-signin")
    async def form(
        self, request: Request[Any, Any, Any], token: Annotated[str | None, Parameter()] = None
    ) -> Template | Redirect:
        if token:
            await offer(request, token)
            return Redirect("/signin")
        page = await page_for(request)
        found = await offered(request)
        name = None
        if found is not None:
            name = await anyio.to_thread.run_sync(name_of, request.app.state.services, *found)
        return page.render(
            "signin.html",
            form_csrf=form_token(request),
            offered=None if found is None else found[0],
            offered_name=name,
        )

    @post("/signin", name="web-signin-post", status_code=303)
    async def sign_in(self, request: Request[Any, Any, Any]) -> Redirect:
        form = await checked_form(request)
        token = form.get("token", "").strip() or kept(request).get(OFFERED_FIELD) or ""
        return Redirect(_home_of(await sign_in(request, token)), status_code=303)

    @post("/signout", name="web-signout", status_code=303)
    async def sign_out(self, request: Request[Any, Any, Any]) -> Redirect:
        await checked_form(request)
        await sign_out(request)
        return Redirect("/", status_code=303)
