"""Every refusal's sentence, in English: the one catalogue the faces translate and fill in.

A ``RuleError`` (``service.domain.errors``) carries a code, a ``why`` when its code has several
sentences, and the data its sentence names; its sentence is keyed ``code`` or ``code.why`` here.
The sentences are marked with ``N_`` (gettext's no-op) so that the pages' catalogues take them in
(``python -m service.web.messages``); a face renders one with ``sentence``, given its translator.
A template is ``str.format``'s: a literal brace is doubled, ``!r`` and format specs are as the data
were formatted before the catalogue (the API's detail is the English sentence, unchanged).
"""

from collections.abc import Callable, Mapping


def N_(sentence: str) -> str:  # gettext_noop, by the name extractors know
    """A sentence marked for the catalogues, untranslated here."""
    return sentence


SENTENCES: dict[str, str] = {
    "already_a_member": N_("that player is a member already"),
    "already_a_referee": N_("that referee is appointed already"),
    "already_checked_in": N_("that player has checked in already"),
    "already_confirmed": N_("you confirmed round {round_no} already"),
    "already_disabled": N_("the hook is disabled already"),
    "already_drew": N_("you have drawn already: play the drawn card or keep it"),
    "already_dropped": N_("that player has dropped out already"),
    "already_enabled": N_("the hook is enabled already"),
    "already_joined": N_("that player has joined already"),
    "already_paused": N_("the game is paused already"),
    "already_revoked.invitation_revoked_already": N_("that invitation is revoked already"),
    "already_revoked.token_revoked_already": N_("that token is revoked already"),
    "awaiting_shuffle": N_("the stock is being recycled"),
    "bots_not_at_real_tables": N_("a bot cannot sit at a table played with real cards"),
    "call_not_due": N_("that call is not due with this play"),
    "cannot_challenge_self": N_("you cannot challenge your own call"),
    "cannot_drop": N_("nobody drops out of a single elimination"),
    "cannot_go_out": N_("{card} may not be the last card: draw instead"),
    "card_does_not_match": N_("{name} does not match the top card"),
    "card_entered_twice.card_entered_more": N_("a card is entered more often than the deck holds it"),
    "card_entered_twice.card_went_out": N_("the card that went out is in no hand"),
    "card_not_in_deck.plays_without": N_("{ruleset} plays without {card}"),
    "card_not_in_deck.plays_without_card": N_("{name} plays without that card"),
    "card_not_in_hand.card": N_("{card} is not in your hand"),
    "card_not_in_hand.that_card": N_("that card is not in your hand"),
    "card_repeated": N_("{card} is played once"),
    "cards_of_different_ranks": N_("the cards played together must be of one rank"),
    "check_in_not_open": N_("the check-in opens at {opens}"),
    "credential_not_found": N_("no such token"),
    "credential_not_found.keyring": N_("no such keyring"),
    "credential_not_found.not_an_id": N_("{value!r} is not an id"),
    "csrf_failed": N_("the form's token is missing or not this session's: reload the page"),
    "debt_pending": N_("you face a draw debt of {debt}: answer it or draw"),
    "declaration_not_allowed": N_("{ruleset} plays every card face up"),
    "delivery_not_found": N_("no such delivery of this webhook"),
    "delivery_pending": N_("the delivery is pending: it is being sent"),
    "dispute_open": N_("dispute {number} is waiting for a ruling"),
    "draw_not_allowed.you_hold_playable": N_("you hold a playable card: play it"),
    "draw_not_allowed.you_play_again": N_("you may play again or end the turn (keep); no card is drawn"),
    "drawn_card_face_up": N_("a card just drawn is played face up"),
    "forbidden.admin_only": N_("only an admin may do this"),
    "forbidden.admin_referee_imports": N_("an admin or a referee imports a game record"),
    "forbidden.admin_use_admin": N_("only an admin may use the admin page"),
    "forbidden.game_officials": N_("only the game's referees and admins may do this"),
    "forbidden.holder_new_token": N_("only an admin or the holder may get a new token"),
    "forbidden.holder_tokens": N_("only an admin or the holder may see or revoke these tokens"),
    "forbidden.mao_matches": N_("only an admin or the league's referees make its Mao matches"),
    "forbidden.match_officials": N_("only the match's referees and admins may do this"),
    "forbidden.player_acts_themself": N_(
        "a player acts for themself in a tournament; an admin for any member"
    ),
    "forbidden.player_creates_friendly": N_("a player creates friendly games only"),
    "forbidden.player_ends_own": N_("only the player ends their own sessions"),
    "forbidden.player_chooses_notices": N_("only the player chooses their own notifications"),
    "forbidden.referee_console_game": N_("the referee console is for the game's referees and admins"),
    "forbidden.referee_creates_friendly": N_("a referee creates friendly games and games of their leagues"),
    "forbidden.referee_imports_friendly": N_("a referee imports friendly games and games of their leagues"),
    "forbidden.referees_admins_rule": N_("only referees and admins rule on disputes"),
    "forbidden.rename_player": N_("only an admin or the player may rename a player"),
    "forbidden.signin_link_makers": N_(
        "only an admin, the player or a referee of their league makes their sign-in link"
    ),
    "game_abandoned": N_("the game was abandoned: {abandoned}"),
    "game_already_attached": N_("that game is attached to another table"),
    "game_exists.record_game": N_(
        "the record's game {game_id} is in the service already; to import it as a new game of its "
        "own, ask for a copy (copy: true)"
    ),
    "game_exists.stored": N_("a game with the id {game_id} is stored already"),
    "game_not_found": N_("no such game"),
    "game_not_found.mao_match": N_("no such Mao match"),
    "game_not_found.not_an_id": N_("{value!r} is not an id"),
    "game_not_over": N_("the game is still being played"),
    "game_over": N_("the match is over"),
    "game_paused.game_paused_dispute": N_("the game is paused by dispute {number}"),
    "game_paused.game_paused_nothing": N_(
        "the game is paused: nothing may be played or drawn, and nothing said but talk about the "
        "turn order or safety"
    ),
    "idempotency_key_reused.request": N_("this idempotency key was used for another request"),
    "impossible_points.cards_left_worth": N_("the cards left can be worth {most} points at most"),
    "impossible_points.no_card_worth": N_("no card of {ruleset} is worth less than {lowest}"),
    "invalid_check_in.check_needs_start": N_("a check-in needs a start time (starts_at)"),
    "invalid_check_in.check_opens_minutes": N_("the check-in opens 1 to {max_check_in} minutes before"),
    "invalid_choice": N_("choose another player who is still in the match"),
    "invalid_cursor.cursor_continues_another": N_("the cursor continues another list than {kind}"),
    "invalid_cursor.cursor_continues_list": N_(
        "the cursor continues this list under other filters: send the same"
    ),
    "invalid_cursor.cursor_not_service": N_("the cursor is not one this service gave"),
    "invalid_deck.deck_cards": N_("the deck must be the 52 cards"),
    "invalid_deck.deck_cards_each": N_("the deck must be the 52 cards, each as 10H, QS, 7D"),
    "invalid_deck.deck_cards_ruleset": N_("the deck must be the {count} cards of the ruleset"),
    "invalid_email": N_("that does not read as one e-mail address"),
    "invalid_email.mail_needs_address": N_("to be notified by e-mail, give your e-mail address"),
    "invalid_email.no_mail": N_("this service sends no e-mail: choose the browser"),
    "invalid_entry.count_missed_calls": N_("a count of missed calls is never negative"),
    "invalid_entry.give_either_cards": N_(
        "give either the cards left in each hand or their points, not both"
    ),
    "invalid_entry.round_no_winner": N_("a round with no winner has no card that went out"),
    "invalid_expiry.time_zone": N_("an invitation's expiry needs a time zone"),
    "invalid_expiry.window": N_("an invitation expires after now and within {days} days"),
    "invalid_filter.choice": N_("{name} is one of {choices}, not {value!r}"),
    "invalid_filter.id": N_("{name} must be an id (a UUID), not {value!r}"),
    "invalid_forfeit_after": N_(
        "a seat forfeits after 1 to {max_forfeit_after} timed-out turns in a row (0: never)"
    ),
    "invalid_format": N_("the format is one of {formats}"),
    "invalid_in_person_tables": N_("the tables played in person are a whole number, 0 to {max_in_person}"),
    "invalid_late_policy": N_("a late player's turn is played by a bot ('bot')"),
    "invalid_match_length.match_target_score": N_("a match is a target score or a single round, not both"),
    "invalid_match_length.target_score_whole": N_("a target score is a whole number, at least 1"),
    "invalid_name": N_("a credential needs a name of 1 to {max_name} characters"),
    "invalid_option.call_penalty_between": N_("call_penalty must be between 0 and 10"),
    "invalid_option.card_deck_deals": N_(
        "a {deck_size}-card deck deals hands of {hand_size} (and a starter and a card to draw) to "
        "at most {most} players; this table has {seats}: choose a smaller hand_size"
    ),
    "invalid_option.decks_between": N_("decks must be between 1 and {max_decks}"),
    "invalid_option.elimination_total_least": N_("elimination_total must be at least 1"),
    "invalid_option.hand_size_between": N_(
        "hand_size must be between 1 and {most} for {min_players} players and a {deck_size}-card deck"
    ),
    "invalid_option.hand_size_hands": N_("hand_size: the hands and the starter must fit in 52 cards"),
    "invalid_option.hand_size_most": N_(
        "hand_size must be at most {most_without_four}: a bigger hand always holds four cards of "
        "one rank, and such a deal is dealt again for ever"
    ),
    "invalid_option.judge_seat_server": N_("judge_seat: with the server as judge, nobody else judges"),
    "invalid_option.judge_server_referee": N_("judge is 'server' or 'referee'"),
    "invalid_option.league_clock": N_(
        "a league game plays the league's turn clock and forfeit rule: leave turn_clock and forfeit_after out"
    ),
    "invalid_option.league_game_plays": N_(
        "a league game plays the league's ruleset and options; only the match length "
        "({match_length_options}) may be set"
    ),
    "invalid_option.on_off": N_("option {key!r} is on or off (true or false)"),
    "invalid_option.option_between": N_("option {key!r} is between {low} and {high}"),
    "invalid_option.option_not_options": N_(
        "{key!r} is an option of {owners}, not of {preset}; options are: {own}"
    ),
    "invalid_option.option_takes": N_("option {key!r} takes a {kind}"),
    "invalid_option.option_whole_number": N_("option {key!r} is a whole number from {low} to {high}"),
    "invalid_option.options_cannot_both": N_(
        "options {other!r} and {key!r} cannot both be on: they set {field} to {theirs} and to "
        "{mine}; turn on one"
    ),
    "invalid_option.rounds_win_least": N_("rounds_to_win is at least 1"),
    "invalid_option.target_score_least": N_("target_score must be at least 1"),
    "invalid_penalty": N_("a penalty is at least one card"),
    "invalid_places.joined_no_fewer": N_("{count} have joined: no fewer places than that"),
    "invalid_places.tournament_places": N_("a tournament has 2 to {max_entrants} places"),
    "invalid_points": N_("seat {seat}'s points are a whole number, 0 or more"),
    "invalid_password": N_("a password has {min_length} to {max_length} characters"),
    "invalid_reason.reason_characters_plain": N_("a reason is 1 to {max_reason} characters of plain text"),
    "invalid_reason.reason_text": N_("a reason is text"),
    "invalid_record.line": N_("line {at}: {error}"),
    "invalid_record.record_most_lines": N_("a record has at most {most_lines} lines"),
    "invalid_recycle": N_("the new stock must be the discards under the top card"),
    "invalid_referee": N_("a referee needs an id"),
    "invalid_result.result_gives_all": N_("a result gives all {seats} seats"),
    "invalid_result.seats_forfeited_seats": N_(
        "the seats that forfeited are seats of the table, not all of them"
    ),
    "invalid_result.totals_timeouts_seats": N_("totals, timeouts and seats are whole numbers"),
    "invalid_result.winners_seats_best": N_("the winners are the seats with the best total"),
    "invalid_result.winners_seats_not": N_("the winners are seats not eliminated before the others"),
    "invalid_role": N_("a credential is for an admin, a referee or a player, not {role!r}"),
    "invalid_rounds.between_rounds": N_("between 1 and {max_rounds} rounds"),
    "invalid_rounds.double_round_robin_plays": N_(
        "a double round robin plays every pairing twice: its rounds follow from the entrants"
    ),
    "invalid_rounds.single_elimination_plays": N_("a single elimination plays until one table is left"),
    "invalid_rounds.swiss_tournament_needs": N_("a swiss tournament needs its number of rounds"),
    "invalid_ruleset.card_points_give": N_("card_points must give every rank of the deck (and the joker)"),
    "invalid_ruleset.deck_holds_jokers": N_("a deck holds 0 to {jokers_per_deck} jokers"),
    "invalid_ruleset.each_call_said": N_("each call is said as a word"),
    "invalid_ruleset.names_cards_not": N_("{field} names cards not in the deck: {unknown}"),
    "invalid_ruleset.out_multiplier_more": N_("out_multiplier is 1 or more"),
    "invalid_ruleset.players_allowed_range": N_("players allowed must be a range starting at 2"),
    "invalid_ruleset.unknown_ranks": N_("unknown ranks {ranks}"),
    "invalid_ruleset.unknown_ranks_cards": N_("unknown ranks or cards {unknown}"),
    "invalid_ruling.events_voided_first": N_(
        "only events {first_voidable} to {last} can be voided (from the first deal to the last "
        "event before the dispute)"
    ),
    "invalid_ruling.penalty_cards": N_("a penalty is 1 to {most_penalty_cards} cards"),
    "invalid_ruling.penalty_cards_given": N_("penalty cards can only be given while a round is played"),
    "invalid_schedule.interval_whole_number": N_(
        "the interval is a whole number of seconds, 1 to {max_interval}"
    ),
    "invalid_schedule.start_time_needs": N_("the start time needs a time zone"),
    "invalid_seat.neither_player_id": N_("{spec!r} is neither a player id nor 'bot:<name>'"),
    "invalid_seat.not_player_id": N_("{name!r} is not a player id"),
    "invalid_seeding": N_("seeding is 'draw' or 'rating'; rating_tie_break is true or false"),
    "invalid_table_size": N_("{name} tables seat {low} to {high}"),
    "invalid_time_zone": N_("a time zone is an IANA name such as Europe/Berlin or UTC"),
    "invalid_turn_clock": N_("a turn clock is 1 to {max_turn_clock} seconds"),
    "invalid_uses": N_("an invitation is for 1 to {max_uses} people"),
    "invalid_webhook_players.hook_asks_turns": N_(
        "a hook that asks for turns names the players whose turns it wants, and only such a hook"
    ),
    "invalid_webhook_players.hook_follows_turns": N_(
        "a hook follows the turns of {max_turn_players} players at most"
    ),
    "invalid_webhook_players.not_player_id": N_("{player!r} is not a player id"),
    "invalid_webhook_url.credentials": N_("a webhook URL holds no user name or password"),
    "invalid_webhook_url.fragment": N_("a webhook URL has no fragment (#...)"),
    "invalid_webhook_url.host": N_("a webhook URL names a host"),
    "invalid_webhook_url.length": N_("a webhook URL is an http or https URL of at most {max_url} characters"),
    "invalid_webhook_url.port": N_("a webhook URL's port is 1 to 65535"),
    "invalid_webhook_url.scheme": N_("a webhook URL starts with http:// or https://"),
    "invalid_webhook_url.unreadable": N_("the webhook URL cannot be read"),
    "invitation_expired": N_("the invitation has expired"),
    "invitation_not_found": N_("no such invitation"),
    "invitation_not_found.not_an_id": N_("{value!r} is not an id"),
    "invitation_revoked": N_("the invitation was revoked"),
    "invitation_used_up": N_("the invitation has been used as often as it may"),
    "last_card_face_up": N_("a hand's last card is played face up"),
    "league_not_found": N_("no such league"),
    "league_not_found.not_an_id": N_("{value!r} is not an id"),
    "league_referee_not_found": N_("that referee is not a referee of the league"),
    "loser_without_cards": N_(
        "seats {empty} hold no card without having won: only one player can, one who went out "
        'without "Mau Mau" and was overtaken before the window closed'
    ),
    "malformed_call.not_call": N_("{call!r} is not a call"),
    "malformed_call.not_call_say": N_("{call!r} is not a call: say 'mau' or 'mau_mau'"),
    "malformed_card.not_card": N_("{card!r} is not a card"),
    "malformed_card.not_card_write": N_(
        "{text!r} is not a card: write the rank (2-10, J, Q, K, A) then the suit (C, D, H or S), or "
        "for a joker X then 1 or 2; a second deck's card ends in .2"
    ),
    "malformed_name.character": N_(
        "a {what}'s name may not hold U+{codepoint:04X} (control, invisible formatting or "
        "unassigned characters)"
    ),
    "malformed_name.length": N_("a {what}'s name is 1 to {max_name} characters, trimmed"),
    "malformed_name.text": N_("a {what}'s name is text"),
    "malformed_rank": N_("{text!r} is not a rank: use 2-10, J, Q, K, A or joker"),
    "malformed_request.card_ticked_lay": N_("a card ticked to lay with the play names no card"),
    "malformed_request.choose_list": N_("{name}: choose one from the list"),
    "malformed_request.decode": N_("the form is not filled in as it should be: {problem}"),
    "malformed_request.face_down_play": N_("the face-down play needs {name}"),
    "malformed_request.move_malformed": N_("the move is malformed: {error}"),
    "malformed_request.move_not": N_("the move is not one of {kinds}"),
    "malformed_request.not_whole_number": N_("{text!r} is not a whole number from 0 to {most}"),
    "malformed_request.say_who_went": N_("say who went out, or that nobody did"),
    "malformed_request.starts_date_time": N_("starts_at: a date and time such as 2026-12-05T18:00"),
    "malformed_request.starts_or_none": N_("a start time, or no start time: not both"),
    "malformed_rule.already_call_base": N_("{words!r} is already a call of the base rules"),
    "malformed_rule.call_due_played": N_("a call is due for a played card, not for a draw"),
    "malformed_rule.call_letters_spaces": N_("a call is 1 to {max_words} letters, spaces or apostrophes"),
    "malformed_rule.name_ranks_suits": N_("{text!r}: name ranks, suits or colours, all of one kind"),
    "malformed_rule.not_rank_suit": N_("{text!r} is not a rank, suit, colour or 'draw'"),
    "malformed_rule.rule_least_clause": N_("a rule has at least one clause"),
    "malformed_rule.rule_most_clauses": N_("a rule has at most {max_clauses} clauses"),
    "malformed_rule.shapes": N_(
        '{part!r}: write "after <trigger>: next <cards>" or \'on <card>: say "<words>"\''
    ),
    "malformed_suit.not_suit": N_("{suit!r} is not a suit"),
    "malformed_suit.not_suit_use": N_("{suit!r} is not a suit: use C, D, H or S"),
    "malformed_utterance.say_characters": N_("say 1 to {max_utterance} characters"),
    "malformed_utterance.talk_pause_about": N_("talk in a pause is about {pause_topics}"),
    "mao_league": N_("this league plays Mao: its games are made at /mao-games"),
    "match_already_started": N_("this match has already started"),
    "match_not_started": N_("the match has not started"),
    "member_not_found": N_("that player is not a member of the league"),
    "must_cover": N_("the drawn card covers your {covered}: play it"),
    "name_reserved": N_("{erased_name!r} is what an erased player is called"),
    "name_taken": N_("another member of {where} is called {name!r}"),
    "next_game_not_found": N_("the player has no table to play in any tournament"),
    "no_check_in": N_("this tournament has no check-in: every entrant plays"),
    "no_dispute": N_("there is no dispute to rule on"),
    "no_proposal": N_("no rule has been proposed"),
    "no_referee": N_("the league has no referee to judge: appoint one first"),
    "no_shuffle_due": N_("the stock does not need recycling"),
    "no_such_event.below_one": N_("event numbers start at 1, not {number!r}"),
    "no_such_event.beyond": N_("the game has {version} events, not {number}"),
    "no_such_event.named": N_("this game has no event {about}"),
    "no_such_event.numbered": N_("the game has no event {number}"),
    "no_such_round.game_no_round": N_("this game has no round {round_no!r} entered"),
    "no_such_round.round_not_paired": N_("round {round_no!r} is not paired"),
    "no_such_round.round_tournament_not": N_("round {round_no} of this tournament is not paired"),
    "no_such_table": N_("the current round has no table {table} in round {round_no}"),
    "no_suit_to_name": N_("no suit is waiting to be named"),
    "no_winner": N_("a round with no winner has no card that went out"),
    "not_a_mao_league": N_("Mao matches are played in a league of ruleset 'mao'"),
    "not_a_member.every_player_table": N_("every player at the table must be a member of the league"),
    "not_a_member.player_not_member": N_("player {player_id} is not a member of the league"),
    "not_a_member.tournament": N_("only the league's members join its tournaments"),
    "not_a_move": N_("{command} is not a move a seat can make"),
    "not_a_seat.seat": N_("seat {seat} is not at this table"),
    "not_a_seat.seat_given": N_("seat {seat!r} is not at this table"),
    "not_a_seat.seat_no_player": N_("seat {judge_seat} is no player's seat at this table"),
    "not_a_seat.winner": N_("{winner!r} is not a seat"),
    "not_a_tournament_game": N_("that game is not played at a table of this tournament"),
    "not_allowed.deck_dealer": N_("only a referee or an admin may choose the deck or the dealer"),
    "not_allowed.league_rounds": N_("only the league's referees enter rounds at its tables"),
    "not_allowed.league_rulings": N_("only the league's referees rule on its games"),
    "not_allowed.own_deck": N_("only the match's officials deal a deck of their own"),
    "not_allowed.player_table_official": N_("a player at this table or an official enters its rounds"),
    "not_allowed.players_table_confirm": N_("only the players at this table confirm its rounds"),
    "not_allowed.players_table_officials": N_("only the players at this table and its officials may do this"),
    "not_allowed.players_table_raise": N_("only the players at this table may raise a dispute"),
    "not_allowed.referee_rules_dispute": N_("only a referee rules on a dispute"),
    "not_allowed.seed": N_("only a referee or an admin may choose the seed"),
    "not_allowed.service_forfeits_seat": N_("only the service forfeits a seat for its player"),
    "not_allowed.service_official_abandons": N_("only the service or an official abandons a game"),
    "not_allowed.service_referee_times": N_("only the service or a referee times out a turn"),
    "not_editable": N_("{fixed} cannot be edited; only the name, {editable}"),
    "not_found.no_such_file": N_("no such file"),
    "not_found.no_such_form": N_("no such form"),
    "not_in_person.game_played_here": N_("this game is played here: its rounds are not entered"),
    "not_in_person.round_entered_score": N_("only a round entered from a score sheet can be corrected"),
    "not_joined.player_does_not": N_("that player does not play in this tournament"),
    "not_joined.player_not_joined": N_("that player has not joined"),
    "not_pause_caller": N_("only the player who called the pause ends it"),
    "not_paused.game_not_paused": N_("the game is not paused"),
    "not_paused.talk_about_turn": N_("talk about the turn order or safety is for a pause; call one first"),
    "not_ready.check_failed": N_("not ready: {what} ({error})"),
    "not_ready.failing": N_(
        "not ready: the read models are failing: {reason}; {failures} attempt(s) failed since {since}"
    ),
    "not_ready.lag": N_(
        "not ready: the read models are {lag} events behind the log, the oldest for {waited:.0f} s "
        "(MAUMAU_READY_MAX_LAG is {ready_max_lag}, MAUMAU_READY_MAX_LAG_SECONDS is {limit:g})"
    ),
    "not_ready.late": N_("not ready: {stage} did not answer within {seconds:g} s"),
    "not_ready.stale": N_("not ready: the read models are stale ({stale}); mend the cause, then `{mend}`"),
    "not_round_winner": N_("only the last round's winner may propose the next rule"),
    "not_seated.game": N_("you have no seat at this game"),
    "not_seated.match": N_("you have no seat at this match"),
    "not_seated.player_creates_games": N_("a player creates games they sit at"),
    "not_seated.players_table_confirm": N_("the players at the table confirm its rounds"),
    "not_seated.record_seat": N_("the record with a seat's cards is for the player at that seat"),
    "not_started": N_("the tournament has not started"),
    "not_your_seat": N_("seat {seat} is not yours"),
    "not_your_turn.dealer_names_suit": N_("the dealer names the suit for the starter"),
    "not_your_turn.next_player_challenge": N_("only the next player may challenge the face-down card"),
    "not_your_turn.player_card_chooses": N_("the player of the card chooses who draws"),
    "not_your_turn.seat_not_move": N_("seat {seat} is not the one to move"),
    "not_your_turn.turn": N_("it is not your turn"),
    "nothing_to_challenge.no_face_down": N_("no face-down card is open to challenge"),
    "nothing_to_challenge.no_missed_call": N_("no missed call is open to challenge"),
    "nothing_to_choose": N_("no player is waiting to be chosen"),
    "nothing_to_keep": N_("keeping is for the card just drawn"),
    "only_drawn_card": N_("after drawing, only the drawn card may be played"),
    "own_entry": N_("another player at the table confirms the round you entered"),
    "played_in_person.enter_rounds": N_("this game is played with real cards: enter its rounds"),
    "played_in_person.no_clock": N_("a table played with real cards keeps no turn clock"),
    "played_in_person.own_deck": N_("a table played with real cards deals its own deck"),
    "player_count.mao_players": N_("mao is for {min_seats} to {max_seats} players"),
    "player_count.players": N_("{name} is for {min_players} to {most} players"),
    "player_erased": N_("that player was erased"),
    "player_not_chosen": N_("the player of the card must first choose who draws"),
    "player_not_found": N_("no such player"),
    "player_not_found.not_an_id": N_("{value!r} is not an id"),
    "player_seated_twice.player_hold_seat": N_("a player may hold one seat only"),
    "player_seated_twice.player_take_seat": N_("a player can take one seat only"),
    "proposal_pending.judge_first_approve": N_("the judge must first approve or refuse the proposed rule"),
    "proposal_pending.proposed_rule_awaits": N_("a proposed rule awaits the judge"),
    "record_has_bots": N_(
        "a table played in person seats people only: name a player for each seat ({bots!r} is a bot)"
    ),
    "record_inconsistent.abandoned": N_("event {number}: the game was abandoned, so it has no result"),
    "record_inconsistent.clock": N_(
        "event {number}: a turn clock ran out; a table played in person has none"
    ),
    "record_inconsistent.early_end": N_("the match ends before round {round_no} by these rules"),
    "record_inconsistent.league_rules": N_(
        "the record was played by other rules than the league's ({ruleset})"
    ),
    "record_inconsistent.no_end": N_("the match does not end after the record's last round by these rules"),
    "record_inconsistent.no_match_end": N_(
        "the record's match has no end: a game is imported once its match is over"
    ),
    "record_inconsistent.numbering": N_("the record's rounds are not numbered 1, 2, 3, ..."),
    "record_inconsistent.refused": N_("round {round_no}: {refusal}"),
    "record_inconsistent.scores": N_(
        "round {round_no} (event {number}) scores {scored}, totals {totals} by these rules, not "
        "what the record says"
    ),
    "record_inconsistent.seat_count": N_("the record has {seats} seats, not {count}"),
    "record_inconsistent.winners": N_("the match ends with winners {winners}, not the record's"),
    "referee_not_found": N_("no such referee"),
    "round_in_progress": N_("a round is being played"),
    "round_not_dealt": N_("the next round has not been dealt"),
    "rule_incompatible": N_("{rule!r} can leave no card to play on {card}"),
    "ruleset_mismatch": N_("a game of this league plays its ruleset, {name}, not {ruleset}"),
    "seat_count.table_seats_give": N_("this table has {seats} seats: give missed calls for each"),
    "seat_count.table_seats_not": N_("this table has {seats} seats, not {count}"),
    "seat_forfeited.already": N_("seat {seat} has forfeited already"),
    "seat_forfeited.already_that_seat": N_("that seat has forfeited already"),
    "seat_forfeited.seat_forfeited_bot": N_("seat {seat} has forfeited: a bot plays its turns at once"),
    "seat_forfeited.seat_forfeited_match": N_("seat {seat} has forfeited the match"),
    "seat_out.player_out_match": N_("a player out of the match does not challenge"),
    "seat_out.seat_out_match": N_("seat {seat} is out of the match: it holds no card and cannot win"),
    "seat_required": N_("an official names the seat the command is for"),
    "server_judges": N_("the server judges this match: it writes and approves the rules"),
    "session_not_found": N_("no such session of yours: it has ended already"),
    "several_cards_face_up": N_("cards played together are played face up"),
    "several_cards_not_allowed": N_("{ruleset} plays one card at a time"),
    "signin_link_expired": N_("the sign-in link has expired"),
    "signin_link_not_found": N_("no such sign-in link"),
    "signin_link_used": N_("the sign-in link has been used already"),
    "skip_pending": N_("you face a skip: pass it on with a card that skips, or draw to take it"),
    "stale_version.game_event_not": N_(
        "the game is at event {version}, not {expected_version}: load it again"
    ),
    "stale_version.was_changed_meanwhile": N_("it was changed meanwhile: try again"),
    "stock_exhausted": N_("there is no card left to draw"),
    "suit_not_allowed": N_("{card} does not name a suit"),
    "suit_not_named": N_("the dealer must first name the suit for the starter"),
    "suit_required": N_("name a suit with a wild card"),
    "table_has_game": N_("table {table} plays game {found} already"),
    "too_few_players.last_two_players": N_("the last two players cannot drop out: cancel the tournament"),
    "too_few_players.tournament_needs_least": N_(
        "a tournament needs at least two players; {count} would play"
    ),
    "too_many_attempts": N_("too many wrong codes for this invitation: wait a minute"),
    "too_many_attempts.password": N_("too many wrong passwords: wait a minute"),
    "too_many_attempts.signin_link": N_("too many wrong sign-in links: wait a minute"),
    "too_many_cards": N_("the hands hold at most {count} cards"),
    "tournament_cancelled": N_("the tournament was cancelled: {cancelled}"),
    "tournament_full": N_("every place is taken"),
    "tournament_not_found": N_("no such tournament"),
    "tournament_not_found.not_an_id": N_("{value!r} is not an id"),
    "tournament_not_found.withdrawn": N_("no tournament"),
    "tournament_over": N_("the tournament is over"),
    "tournament_started": N_("the tournament has started"),
    "unauthorized.bearer_scheme": N_("send the token as 'Authorization: Bearer <token>'"),
    "unauthorized.needs_bearer_token": N_("this needs a bearer token"),
    "unauthorized.password_not_valid": N_("the name or the password is not right"),
    "unauthorized.record_needs_bearer": N_("the {sight} record needs a bearer token"),
    "unauthorized.sign_admin": N_("sign in as an admin"),
    "unauthorized.sign_end_session": N_("sign in to end a session"),
    "unauthorized.sign_in_first": N_("sign in first"),
    "unauthorized.sign_play": N_("sign in to play"),
    "unauthorized.token_not_valid": N_("the token is not valid"),
    "unknown_bot.no_bot_bots": N_("no bot {name!r}; bots are: {bots}"),
    "unknown_bot.no_bot_known": N_("no bot {name!r}; known: {known}"),
    "unknown_option.no_modifier_modifiers": N_("no modifier {unknown!r}; modifiers are: {known}"),
    "unknown_option.no_option_mao": N_(
        "no option {key!r}; Mao's options are: {mao_options} (the secret rule is written for each "
        "match by its judge)"
    ),
    "unknown_option.no_option_options": N_("no option {key!r}; options are: {own}"),
    "unknown_ruleset": N_("no ruleset {name!r}; known: {known}"),
    "unknown_webhook_event.name_least_event": N_("name at least one event: {event_kinds}"),
    "unknown_webhook_event.no_event_events": N_("no event {unknown!r}; the events are {event_kinds}"),
    "webhook_disabled": N_("the webhook is disabled: enable it first"),
    "webhook_not_found": N_("no such webhook"),
    "webhook_not_found.not_an_id": N_("{value!r} is not an id"),
    "winner_holds_cards": N_("seat {winner} went out, so it holds no card"),
}


def english(sentence: str) -> str:
    return sentence


def sentence(key: str, data: Mapping[str, object], translate: Callable[[str], str] = english) -> str:
    """The refusal's sentence in the translator's language, filled in with its data (a key with no
    sentence, which ``tests/unit/test_refusal_sentences.py`` rules out, reads as itself)."""
    template = SENTENCES.get(key)
    if template is None:
        return key
    return translate(template).format_map(data)
