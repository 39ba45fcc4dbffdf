"""Signing in and out in a browser: a token once, then the session cookie (``service.web.session``).

``GET /signin`` shows the form; ``GET /signin?token=...`` (a link an admin hands out) signs in and
redirects to an address without the token, so it stays out of the history and of later
``Referer`` headers; ``POST /signin`` is the form; ``POST /signout`` ends the session. Both posts
need the session's form token.
"""

from typing import Annotated, Any

from litestar import Controller, Request, get, post
from litestar.params import Parameter
from litestar.response import Redirect, Template

from service.domain.roles import Actor
from service.web.render import page_for
from service.web.session import checked_form, form_token, sign_in


def _home_of(actor: Actor) -> str:
    return f"/web/players/{actor.id}" if actor.role == "player" else "/"


class SignInPage(Controller):
    include_in_schema = False

    @get("/signin", name="web-signin")
    async def form(
        self, request: Request[Any, Any, Any], token: Annotated[str | None, Parameter()] = None
    ) -> Template | Redirect:
        if token:
            return Redirect(_home_of(await sign_in(request, token)))
        page = await page_for(request)
        return page.render("signin.html", form_csrf=form_token(request))

    @post("/signin", name="web-signin-post", status_code=303)
    async def sign_in(self, request: Request[Any, Any, Any]) -> Redirect:
        form = await checked_form(request)
        return Redirect(_home_of(await sign_in(request, form.get("token", ""))), status_code=303)

    @post("/signout", name="web-signout", status_code=303)
    async def sign_out(self, request: Request[Any, Any, Any]) -> Redirect:
        await checked_form(request)
        request.clear_session()
        return Redirect("/", status_code=303)
