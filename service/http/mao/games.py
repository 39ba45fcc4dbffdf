"""Mao matches: create one in a Mao league; list a league's; read its public part, a seat's view,
the judge's view.

A Mao match is no card game (no ruleset preset, no totals, a judge), so ``GET /games`` does not
hold it: its list is its own, paged and filtered as that one is.
"""

from typing import Annotated

from litestar import get, post
from litestar.openapi.spec import Example
from litestar.params import Body

from service.domain.mao.views import JudgeView, PlayerView
from service.http.calls import calls, looks_up
from service.http.controller import ApiController
from service.http.mao.schemas import MaoGameListRead, MaoGameRead, game_read
from service.http.page_read import Listing
from service.http.params import GameId, SeatToSee
from service.http.routes import public_route, signed_in_route
from service.http.services import CallerDep
from service.usecases import mao
from service.usecases.mao import MaoGameCreate
from service.usecases.queries import lists
from service.usecases.queries import mao as mao_queries

MAO_STATUSES = ("playing", "over")

MAO_GAMES = Listing(MaoGameListRead, "mao-games", int, lists.MAO_GAMES)


MaoGameBody = Annotated[
    MaoGameCreate,
    Body(
        examples=[
            Example(
                summary="two players and a learning bot, a human judge",
                value={
                    "league_id": "5d8e2a47-1b3c-4f6d-8e9a-0c2b4d6f8a1e",
                    "seats": [
                        "3f1c6c9e-8f7a-4d52-9a53-3e1b1c0b6a77",
                        "8a4d2b6e-1c3f-4e5a-9b7d-2f6e8c0a4b1d",
                        "bot:learning",
                    ],
                    "judge": "referee",
                },
            )
        ]
    ),
]


class MaoGameController(ApiController, path="/mao-games", tag="mao"):
    create = post(
        operation_id="createMaoGame",
        summary="Make a Mao match in a league of ruleset mao (admin, the league's referees)",
        **signed_in_route(403, 404, 410, 415, 422),
    )(calls(mao.create_match, MaoGameRead, encode=game_read, data=MaoGameBody))

    list_mao_games = get(
        operation_id="listMaoGames",
        summary="Mao matches, the newest first, a page at a time; by league or status (public; read model)",
        **public_route(422),
    )(MAO_GAMES.by_league_and_status("Mao matches", MAO_STATUSES))

    read = get(
        "/{game_id:uuid}",
        operation_id="getMaoGame",
        summary="A Mao match's public part: the table, card counts, penalties, the rule once revealed",
        **public_route(404, reads_store=True),
    )(looks_up(mao_queries.match, MaoGameRead, game_read, game_id=GameId))

    @get(
        "/{game_id:uuid}/me",
        operation_id="getMaoPlayerView",
        summary="A seat's view: its hand, the table, the penalties' reasons; the rule only once revealed",
        **signed_in_route(403, 404, 422, reads_store=True),
    )
    def me(self, caller: CallerDep, game_id: GameId, seat: SeatToSee = None) -> PlayerView:
        return caller.run(mao_queries.seat_view, game_id, seat)

    judge = get(
        "/{game_id:uuid}/judge",
        operation_id="getMaoJudgeView",
        summary="The judge's view: the rule, the clauses in force, every hand, the stock, the calls due",
        **signed_in_route(403, 404, reads_store=True),
    )(calls(mao_queries.judges_view, JudgeView, game_id=GameId))
