"""Rule errors: every refusal the engine gives has a stable code."""


class RuleError(Exception):
    """A command the rules refuse. `code` is stable; clients and the HTTP layer key on it."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, {self.message!r})"
