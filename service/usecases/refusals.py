"""The refusals' registry: each stable code and the HTTP status it answers with.

The domain and the use cases refuse with a ``RuleError(code, why=..., **data)``
(``service.domain.errors``); the faces answer with this one table's status: the API as
problem+json (``service.http.errors``) whose detail is the English sentence of the refusals'
catalogue (``service.domain.refusal_sentences``), the pages as a page with the refusal's status
and the sentence in the reader's language. A code not listed follows its name's pattern (``status_of``).

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
|     | league_referee_not_found (a referee dismissed who is not the league's referee), |
|     | webhook_not_found, delivery_not_found, session_not_found, signin_link_not_found; |
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
| 410 | invitation_expired, invitation_used_up, invitation_revoked, player_erased, |
|     | signin_link_used, signin_link_expired |
| 413 | request_too_large |
| 429 | too_many_attempts (too many wrong codes for one invitation, sign-in link or league's |
|     | passwords from one address: wait a minute) |
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
        "league_referee_not_found",
        "webhook_not_found",
        "delivery_not_found",
        "session_not_found",
        "signin_link_not_found",
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
    410: (
        "invitation_expired",
        "invitation_used_up",
        "invitation_revoked",
        "player_erased",
        "signin_link_used",
        "signin_link_expired",
    ),
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
    "invalid_email",
    "invalid_entry",
    "invalid_expiry",
    "invalid_forfeit_after",
    "invalid_format",
    "invalid_in_person_tables",
    "invalid_late_policy",
    "invalid_match_length",
    "invalid_name",
    "invalid_option",
    "invalid_password",
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
