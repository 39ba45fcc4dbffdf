"""Joining a league by an invitation's link: ``/join/{code}``, the page an organiser's link and QR
code open (the admin page makes them).

``GET`` shows the league and a form: the name the person will play under and, if they like, a
password to sign in with later (by league, name and password on ``/signin``). ``POST`` redeems the
invitation with the API's own use case and signs the browser in with the token it made, then
shows the new player their page. A code that is wrong, used up, expired or revoked answers a page
in the reader's language saying to ask the organiser for a new link, with the refusal's status;
a wrong one counts toward the client address's wrong codes as the API's redemption does
(``MAUMAU_REDEEM_REFUSALS``). The code is in the path, never in a log line (the request log
names the route's template) nor sent on (``Referrer-Policy: same-origin``).
"""

from typing import Annotated, Any

import anyio.to_thread
from litestar import Controller, Request, get, post
from litestar.params import Parameter
from litestar.response import Redirect, Template

from service.auth.peer import client_address
from service.domain.errors import RuleError
from service.usecases.invitations import InvitationShown, Redemption, invitation_to, redeem_invitation
from service.usecases.refusals import status_of
from service.usecases.services import Services
from service.web.render import Page, page_for
from service.web.session import checked_form, form_token, sign_in

InvitationCode = Annotated[str, Parameter(description="the invitation's code, as its link carries it")]
# the refusals of an invitation itself: the person needs a new link, not another try
SPENT = ("invitation_not_found", "invitation_expired", "invitation_used_up", "invitation_revoked")


def _answer(page: Page, status: int = 200, **context: Any) -> Template:
    answer = page.render("join.html", form_csrf=form_token(page.request), spent=SPENT, **context)
    answer.status_code = status
    return answer


def _shown(services: Services, code: str, address: str) -> InvitationShown | None:
    try:
        return invitation_to(services, code, address)
    except RuleError:
        return None  # spent meanwhile: the refusal already says what to do


class JoinPage(Controller):
    path = "/join"

    @get("/{code:str}", name="web-join")
    async def invitation(self, request: Request[Any, Any, Any], code: InvitationCode) -> Template:
        page = await page_for(request)
        services: Services = request.app.state.services
        address = client_address(request, services.settings.trusted_proxies)
        try:
            shown = await anyio.to_thread.run_sync(invitation_to, services, code, address)
        except RuleError as refused:
            return _answer(page, status_of(refused.code), refusal=refused)
        return _answer(page, invitation=shown, code=code)

    @post("/{code:str}", name="web-join-post", status_code=303)
    async def join(self, request: Request[Any, Any, Any], code: InvitationCode) -> Template | Redirect:
        form = await checked_form(request)
        page = await page_for(request)
        services: Services = request.app.state.services
        address = client_address(request, services.settings.trusted_proxies)
        password = form.get("password") or None
        try:
            data = Redemption(code=code, name=form.get("name", ""))
            joined = await anyio.to_thread.run_sync(redeem_invitation, services, data, address, password)
        except RuleError as refused:
            shown = None
            if refused.code not in SPENT and refused.code != "too_many_attempts":
                # a taken name or a short password: the form again, with the name as it was sent
                shown = await anyio.to_thread.run_sync(_shown, services, code, address)
            name = form.get("name", "")
            return _answer(
                page, status_of(refused.code), refusal=refused, invitation=shown, code=code, sent_name=name
            )
        await sign_in(request, joined.welcome.token, own=True)
        return Redirect(f"/web/players/{joined.welcome.player_id}", status_code=303)
