"""Mao: matching with a judge who holds one secret rule, penalises wrong plays and wrong words.

A package of its own, pure like the engine: the rule language (``rule``), the judge's
verdicts (``judge``), the compatibility check (``compatibility``), the calls (``speech``),
the decider (``commands``, ``events``, ``state``, ``game``), what each viewer may see
(``views``, ``sight``, ``redaction``, ``replay``) and the bots (``bots``, ``learning``; ``table``
plays them). Stored and served: ``aggregate`` (``MaoGame``, a game kind: ``service.domain.kind``),
``autoplay`` (the server's recycles and bot moves after each command) and ``league`` (a league of
ruleset ``mao``).

Refusal codes (``RuleError``): malformed_rule, rule_incompatible, player_count, not_a_seat,
invalid_option, invalid_deck, invalid_recycle, no_shuffle_due, match_already_started, match_not_started,
round_not_dealt, round_in_progress, awaiting_shuffle, game_over, game_paused, already_paused,
not_paused, not_pause_caller, not_your_turn, card_not_in_hand, malformed_card,
malformed_utterance, not_round_winner, proposal_pending, no_proposal; around the decider:
unknown_option (a Mao league's options, ``league``), unknown_bot (``autoplay``),
seat_forfeited (an erased player's seat forfeited again, ``aggregate``). A stored match's
idempotency key sent with another request is refused as every game kind's is (``service.domain.kind``).
"""
