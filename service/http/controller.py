"""The API's controllers: each says its path and its one tag where it is named."""

from typing import Any

from litestar import Controller


class ApiController(Controller):
    """``class GameController(ApiController, path="/games", tag="games")``; no path: the root's."""

    def __init_subclass__(cls, *, tag: str, path: str = "/", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls.path = path
        cls.tags = [tag]
