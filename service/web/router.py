"""The pages' router: every page under ``/`` and ``/web/``, behind the session middleware. Kept out of
the package's ``__init__`` so that a worker importing ``service.web.i18n`` for its mails does not
import every page (and litestar) with it."""

from litestar import Router

from service.settings import Settings
from service.web.admin import AdminPage
from service.web.admin_lists import AdminLists
from service.web.figures import FigurePages
from service.web.home import HomePage
from service.web.join import JoinPage
from service.web.leagues import LeaguePage
from service.web.mao_judge import MaoJudgeConsole
from service.web.mao_play import MaoPlayPage
from service.web.mao_table import MaoTablePage
from service.web.notices import NoticeStream
from service.web.play import PlayPage
from service.web.players import PlayerPage
from service.web.referee import RefereeConsole
from service.web.scorer import ScorerPage
from service.web.session import session_middleware
from service.web.signin import SignInPage
from service.web.static import static_file
from service.web.tables import TablePage
from service.web.tournaments import TournamentPage


def web_router(settings: Settings) -> Router:
    return Router(
        path="/",
        route_handlers=[
            HomePage,
            LeaguePage,
            TournamentPage,
            TablePage,
            PlayPage,
            PlayerPage,
            SignInPage,
            JoinPage,
            static_file,
            RefereeConsole,
            ScorerPage,
            AdminPage,
            AdminLists,
            FigurePages,
            MaoTablePage,
            MaoPlayPage,
            MaoJudgeConsole,
            NoticeStream,
        ],
        middleware=[session_middleware(settings)],
        include_in_schema=False,  # every page's: none is in the OpenAPI document
    )
