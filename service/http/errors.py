"""Every refusal as problem+json (RFC 9457), from one table: the stable code decides the status.

A response body is a ``Problem``: ``type`` (``urn:maumau:problem:<code>``),
``title`` (the status's phrase), ``status``, ``detail`` (for people; it never
names a card the asker does not hold), ``code`` (for programs) and, for
malformed requests, ``errors`` (which field, what was wrong). The media type is
``application/problem+json``. A refused request has changed nothing.

| status | codes |
|---|---|
| 400 | malformed_request (invalid JSON, unknown fields, wrong types, bad query or header values), |
|     | malformed_card, malformed_suit, malformed_call, malformed_rank, malformed_name, invalid_seat, |
|     | invalid_filter (a list's filter that is not one: an unknown status, an id that is no UUID);   |
|     | any other malformed_*                                                                       |
| 401 | unauthorized (no bearer token where one is needed, or a token that is not valid) |
| 403 | forbidden (the role may not do this), not_allowed, not_your_seat, not_seated, own_entry, |
|     | csrf_failed (a web page's form posted without its session's token: ``service.web.session``), |
|     | Mao: not_pause_caller (only the pause's caller ends it), not_round_winner (who proposes) |
| 404 | not_found (no such route), game_not_found, player_not_found, league_not_found, |
|     | referee_not_found, credential_not_found, tournament_not_found, next_game_not_found, |
|     | no_such_event, no_such_table, no_such_round, invitation_not_found, member_not_found, |
|     | webhook_not_found, delivery_not_found, session_not_found; |
|     | any *_not_found or no_such_* |
| 405 | method_not_allowed |
| 409 | stale_version, game_paused, game_over, game_not_over, idempotency_key_reused, dispute_open, |
|     | no_dispute, already_a_member, already_a_referee, already_revoked, already_joined, |
|     | game_already_attached, table_has_game, not_started, tournament_started, |
|     | tournament_full, tournament_over, name_taken, name_reserved, webhook_disabled, |
|     | delivery_pending, already_enabled, already_disabled, seat_forfeited, tournament_cancelled, |
|     | game_abandoned, check_in_not_open, already_checked_in, already_dropped, already_confirmed, |
|     | played_in_person (a move at a table played with real cards), not_in_person (a score |
|     | sheet's round for a game played here), game_exists (a game record's game is in the |
|     | service already: import a copy); Mao: match_not_started, round_not_dealt, |
|     | awaiting_shuffle, already_paused, not_paused, proposal_pending, no_proposal, |
|     | server_judges (the server judges the match: no human writes or approves its rules); |
|     | any already_* |
| 410 | invitation_expired, invitation_used_up, invitation_revoked, player_erased |
| 413 | request_too_large |
| 429 | too_many_attempts (too many wrong codes for one invitation from one address: wait a minute) |
| 415 | unsupported_media_type (a body that is not JSON) |
| 422 | every other refusal of the rules: not_your_turn, card_not_in_hand, card_does_not_match, ... |
|     | invalid_cursor (a list's cursor this service did not give, or gave for another list or filters) |
|     | invalid_record (a game record's text that does not read as one: the detail names the line; |
|     | the document cannot say its grammar, so a well-formed body that is no record is 422)       |
|     | impossible score sheets: seat_count, invalid_entry, card_not_in_deck, card_entered_twice, |
|     | too_many_cards, winner_holds_cards, loser_without_cards, invalid_points, impossible_points, |
|     | seat_out (a seat out of the match holding cards or winning), bots_not_at_real_tables |
|     | Mao: rule_incompatible, mao_league (a card game in a Mao league), not_a_mao_league, |
|     | malformed_rule and malformed_utterance (a rule's or a call's text, whose grammar the |
|     | document cannot say: listed here, they are not 400 as their names' pattern would be), |
|     | no_referee (a human judge asked in a league without referees) |
|     | (``UNPROCESSABLE``, and any code not listed here) |
| 500 | internal_error (a fault of the service; the detail says nothing more) |
| 503 | unavailable (the database does not answer), not_ready (``/ready``) |
"""

import logging
from http import HTTPStatus
from typing import Any

import msgspec
from eventsourcing.persistence import InterfaceError, OperationalError
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException
from litestar.openapi.datastructures import ResponseSpec
from litestar.openapi.spec import Example

from service.domain.errors import RuleError

PROBLEM_MEDIA_TYPE = "application/problem+json"

CODES: dict[int, tuple[str, ...]] = {
    400: (
        "malformed_request",
        "malformed_card",
        "malformed_suit",
        "malformed_call",
        "malformed_rank",
        "malformed_name",
        "invalid_seat",
        "invalid_filter",
    ),
    401: ("unauthorized",),
    403: (
        "forbidden",
        "not_allowed",
        "not_your_seat",
        "not_seated",
        "own_entry",
        "csrf_failed",
        "not_pause_caller",
        "not_round_winner",
    ),
    404: (
        "not_found",
        "game_not_found",
        "player_not_found",
        "league_not_found",
        "referee_not_found",
        "credential_not_found",
        "tournament_not_found",
        "next_game_not_found",
        "no_such_event",
        "no_such_table",
        "no_such_round",
        "invitation_not_found",
        "member_not_found",
        "webhook_not_found",
        "delivery_not_found",
        "session_not_found",
    ),
    405: ("method_not_allowed",),
    409: (
        "stale_version",
        "game_paused",
        "game_over",
        "game_not_over",
        "idempotency_key_reused",
        "dispute_open",
        "no_dispute",
        "already_a_member",
        "already_a_referee",
        "already_revoked",
        "already_joined",
        "game_already_attached",
        "table_has_game",
        "not_started",
        "tournament_started",
        "tournament_full",
        "tournament_over",
        "name_taken",
        "name_reserved",
        "webhook_disabled",
        "delivery_pending",
        "already_enabled",
        "already_disabled",
        "seat_forfeited",
        "tournament_cancelled",
        "game_abandoned",
        "check_in_not_open",
        "already_checked_in",
        "already_dropped",
        "already_confirmed",
        "played_in_person",
        "not_in_person",
        "game_exists",
        "match_not_started",
        "round_not_dealt",
        "awaiting_shuffle",
        "already_paused",
        "not_paused",
        "proposal_pending",
        "no_proposal",
        "server_judges",
    ),
    410: ("invitation_expired", "invitation_used_up", "invitation_revoked", "player_erased"),
    413: ("request_too_large",),
    429: ("too_many_attempts",),
    415: ("unsupported_media_type",),
    500: ("internal_error",),
    503: ("unavailable", "not_ready"),
}

# The refusals of the rules that answer 422 (any code not in CODES does too).
UNPROCESSABLE: tuple[str, ...] = (
    "already_drew",
    "bots_not_at_real_tables",
    "call_not_due",
    "cannot_challenge_self",
    "cannot_drop",
    "cannot_go_out",
    "card_does_not_match",
    "card_entered_twice",
    "card_not_in_deck",
    "card_not_in_hand",
    "card_repeated",
    "cards_of_different_ranks",
    "debt_pending",
    "declaration_not_allowed",
    "draw_not_allowed",
    "drawn_card_face_up",
    "impossible_points",
    "invalid_check_in",
    "invalid_choice",
    "invalid_cursor",
    "invalid_deck",
    "invalid_entry",
    "invalid_expiry",
    "invalid_forfeit_after",
    "invalid_format",
    "invalid_in_person_tables",
    "invalid_late_policy",
    "invalid_match_length",
    "invalid_name",
    "invalid_option",
    "invalid_penalty",
    "invalid_places",
    "invalid_points",
    "invalid_reason",
    "invalid_record",
    "invalid_recycle",
    "invalid_referee",
    "invalid_result",
    "invalid_role",
    "invalid_rounds",
    "invalid_ruleset",
    "invalid_ruling",
    "invalid_schedule",
    "invalid_seeding",
    "invalid_table_size",
    "invalid_time_zone",
    "invalid_turn_clock",
    "invalid_uses",
    "invalid_webhook_players",
    "invalid_webhook_url",
    "last_card_face_up",
    "loser_without_cards",
    "malformed_rule",
    "malformed_utterance",
    "mao_league",
    "match_already_started",
    "must_cover",
    "no_check_in",
    "no_referee",
    "no_shuffle_due",
    "no_suit_to_name",
    "no_winner",
    "not_a_mao_league",
    "not_a_member",
    "not_a_move",
    "not_a_seat",
    "not_a_tournament_game",
    "not_editable",
    "not_joined",
    "not_your_turn",
    "nothing_to_challenge",
    "nothing_to_choose",
    "nothing_to_keep",
    "only_drawn_card",
    "player_count",
    "player_seated_twice",
    "record_has_bots",
    "record_inconsistent",
    "rule_incompatible",
    "round_in_progress",
    "ruleset_mismatch",
    "seat_count",
    "seat_out",
    "seat_required",
    "several_cards_face_up",
    "several_cards_not_allowed",
    "skip_pending",
    "stock_exhausted",
    "suit_not_allowed",
    "suit_required",
    "too_few_players",
    "too_many_cards",
    "unknown_bot",
    "unknown_option",
    "unknown_ruleset",
    "unknown_webhook_event",
    "winner_holds_cards",
)

STATUS_OF: dict[str, int] = {code: status for status, codes in CODES.items() for code in codes}

log = logging.getLogger(__name__)


class FieldError(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    message: str
    key: str | None = None  # the field, parameter or header
    source: str | None = None  # "body", "query", "header", "path"


class Problem(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    type: str
    title: str
    status: int
    detail: str
    code: str
    errors: list[FieldError] | None = None


def status_of(code: str) -> int:
    """The table's status for a code; a code not listed follows its name's pattern, else 422."""
    found = STATUS_OF.get(code)
    if found is not None:
        return found
    if code in UNPROCESSABLE:
        return 422
    if code.startswith("malformed_"):
        return 400
    if code.endswith("_not_found") or code.startswith("no_such_"):
        return 404
    if code.startswith("already_"):
        return 409
    return 422


def problem(code: str, detail: str, errors: list[FieldError] | None = None) -> Problem:
    status = status_of(code)
    return Problem(
        type=f"urn:maumau:problem:{code}",
        title=HTTPStatus(status).phrase,
        status=status,
        detail=detail,
        code=code,
        errors=errors,
    )


def respond(found: Problem, headers: dict[str, str] | None = None) -> Response[Problem]:
    return Response(found, status_code=found.status, media_type=PROBLEM_MEDIA_TYPE, headers=headers)


def _headers(code: str) -> dict[str, str] | None:
    return {"WWW-Authenticate": 'Bearer realm="maumau"'} if code == "unauthorized" else None


def on_rule_error(_: Request[Any, Any, Any], error: RuleError) -> Response[Problem]:
    return respond(problem(error.code, error.message), _headers(error.code))


_CODE_OF_STATUS = {400: "malformed_request", 401: "unauthorized", 403: "forbidden", 404: "not_found"}
_CODE_OF_STATUS |= {405: "method_not_allowed", 413: "request_too_large", 415: "unsupported_media_type"}
_CODE_OF_STATUS |= {503: "unavailable"}


def on_http_exception(_: Request[Any, Any, Any], error: HTTPException) -> Response[Problem]:
    """litestar's own refusals: a body or a parameter that does not decode, no such route, ..."""
    status = error.status_code
    if status >= 500:
        log.error("HTTP %s: %s", status, error.detail, exc_info=error)
        return respond(problem("internal_error", "the service failed; the fault is logged"))
    code = _CODE_OF_STATUS.get(status, "malformed_request")
    errors = None
    if isinstance(error, ValidationException) and isinstance(error.extra, list):
        errors = [
            FieldError(message=str(item.get("message", "")), key=item.get("key"), source=item.get("source"))
            for item in error.extra
            if isinstance(item, dict)
        ]
    if errors:
        detail = "the request is malformed: " + "; ".join(
            f"{item.key}: {item.message}" if item.key else item.message for item in errors
        )
    elif status == 400:
        detail = f"the request is malformed: {error.detail}"
    else:
        detail = str(error.detail)
    found = Problem(
        type=f"urn:maumau:problem:{code}",
        title=HTTPStatus(status).phrase,
        status=status,
        detail=detail,
        code=code,
        errors=errors,
    )
    return respond(found, error.headers or _headers(code))


def on_database_error(_: Request[Any, Any, Any], error: Exception) -> Response[Problem]:
    log.error("the database does not answer: %s", error)
    return respond(problem("unavailable", "the database does not answer; try again shortly"))


def on_unexpected(_: Request[Any, Any, Any], error: Exception) -> Response[Problem]:
    log.exception("unexpected error", exc_info=error)
    return respond(problem("internal_error", "the service failed; the fault is logged"))


EXCEPTION_HANDLERS: dict[type[Exception], Any] = {
    RuleError: on_rule_error,
    HTTPException: on_http_exception,
    OperationalError: on_database_error,
    InterfaceError: on_database_error,
    Exception: on_unexpected,
}


def problems(*statuses: int) -> dict[int, ResponseSpec]:
    """The OpenAPI responses of these error statuses, each listing its codes.

    400 and 401 are on every route: any parameter may be malformed, any token bad.
    """
    specs = {}
    for status in sorted({400, 401, *statuses}):
        codes = CODES.get(status, ()) if status != 422 else UNPROCESSABLE
        example = codes[0] if codes else "malformed_request"
        specs[status] = ResponseSpec(
            data_container=Problem,
            media_type=PROBLEM_MEDIA_TYPE,  # type: ignore[arg-type]
            description=f"{HTTPStatus(status).phrase}; code is one of: {', '.join(codes)}",
            generate_examples=False,
            examples=[
                Example(
                    summary=example,
                    value=msgspec.to_builtins(problem(example, "what went wrong, for people")),
                )
            ],
        )
    return specs
