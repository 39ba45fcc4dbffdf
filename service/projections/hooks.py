"""Which events make webhook deliveries, and what each carries: folded by the projection.

``HookFold`` keeps every hook's league, events and players (``HookState``, a row of
``views_webhooks`` each, written with the batch) and, as the projection folds the log, makes a
delivery row for each hook that asks for what an event means (``deliveries``), with the batch and
its tracking position:

| event (kind)          | made from                                                           |
|-----------------------|---------------------------------------------------------------------|
| ``table_ready``       | ``Tournament.TableGameCreated``: a table's game exists, its seats    |
| ``round_started``     | the ``TableGameCreated`` that gives a round's last table its game    |
| ``tournament_finished`` | ``Tournament.Finished``: the ranking (ranks, who dropped) and winners |
| ``turn``              | a game event after which a player the hook names is to move and was  |
|                       | not just before (a new seat to move, or play going on after a        |
|                       | creation, a deal or a ruling)                                        |
| ``dispute_raised``    | ``Game.DisputeRaised``                                              |
| ``ruling_given``      | ``Game.RulingGiven``                                                |

Only the events of the hook's league count (a game outside a league has no hooks), and only
those after the hook was registered and while it is enabled. A delivery's id follows from the
hook, the event's position and the kind, so folding the log again derives the same rows.

Payloads carry only what is public: ids, names, seats, round and table numbers, counts. Never a
card: not the cards of a hand, nor the stock, nor a dispute's reason or a ruling's note (free
texts that could name one).

A player is named in a payload only beside their id (``{"player_id": ..., "name": ...}``: a seat,
an entrant, a turn's ``data``), so the payloads made before a player was erased are rewritten by
``erased_from`` (``docs/privacy.md``), and those made after name them "erased player".
"""

from collections.abc import Iterable
from datetime import datetime
from typing import Any, assert_never
from uuid import UUID, uuid5

import msgspec

from service.domain.adjudication import Correct, Penalty, Resume, Ruling, Void
from service.domain.game import Game
from service.domain.league import ERASED_NAME, Player
from service.domain.state import CHOOSING, DRAWN, NAMING_SUIT, PLAY
from service.domain.tournament import Tournament
from service.domain.tournament_entries import BOT_ENTRANT
from service.domain.tournament_round import Round
from service.domain.webhook import TURN, Webhook

# delivery ids live under this namespace
_DELIVERIES = uuid5(UUID("6ba7b811-9dad-11d1-80b4-00c04fd430c8"), "https://maumau.invalid/deliveries")
_LIVE = (NAMING_SUIT, PLAY, DRAWN, CHOOSING)  # phases in which a seat is to move (not a deal or a recycle)

_encode = msgspec.msgpack.Encoder().encode
_json = msgspec.json.Encoder().encode
_from_json = msgspec.json.Decoder().decode


class HookState(msgspec.Struct, frozen=True, kw_only=True):
    hook_id: UUID
    league_id: UUID
    events: tuple[str, ...]
    players: tuple[str, ...]
    enabled: bool = True


_decode_state = msgspec.msgpack.Decoder(HookState).decode


def delivery_id(hook_id: UUID, position: int, kind: str) -> UUID:
    return uuid5(_DELIVERIES, f"{hook_id}:{position}:{kind}")


def turn_of(game: Game) -> int | None:
    """The seat to move when a seat is (play going on), else None."""
    if game.paused or game.state.phase not in _LIVE:
        return None
    return game.seat_to_move


class HookFold:
    """The hooks as folded so far, and the deliveries their events make (into ``Changes``)."""

    def __init__(self, states: Iterable[bytes], names: Any) -> None:
        # ``names``: player ids -> names as the store holds them (for players not named in memory)
        self._stored_names = names
        self.hooks: dict[UUID, HookState] = {}
        self.leagues: set[UUID] = set()  # leagues with an enabled hook: the only ones worth a look
        self.turns = False  # whether an enabled hook takes turns
        self.names: dict[str, str] = {}
        self.dirty: dict[UUID, HookState] = {}
        for data in states:
            state = _decode_state(data)
            self.hooks[state.hook_id] = state
        self._index()

    def _index(self) -> None:
        self.leagues = {hook.league_id for hook in self.hooks.values() if hook.enabled}
        self.turns = any(hook.enabled and TURN in hook.events for hook in self.hooks.values())

    # ------------------------------------------------------------------
    # the hooks and the names

    def hook_event(self, event: Any) -> None:
        if isinstance(event, Webhook.Registered):
            state = HookState(
                hook_id=event.originator_id,
                league_id=event.league_id,
                events=event.events,
                players=event.players,
            )
        else:
            found = self.hooks.get(event.originator_id)
            if found is None or isinstance(event, Webhook.SecretRotated):
                return
            state = msgspec.structs.replace(found, enabled=isinstance(event, Webhook.Enabled))
        self.hooks[state.hook_id] = self.dirty[state.hook_id] = state
        self._index()

    def player_event(self, event: Any) -> None:
        if isinstance(event, (Player.Registered, Player.Renamed)):
            self.names[str(event.originator_id)] = event.name
        elif isinstance(event, Player.Erased):
            self.names[str(event.originator_id)] = ERASED_NAME

    def rows(self) -> list[tuple[UUID, UUID, bytes]]:
        """The changed hooks' rows, forgotten as changed."""
        rows = [(state.hook_id, state.league_id, _encode(state)) for state in self.dirty.values()]
        self.dirty = {}
        return rows

    def _name(self, player_id: str) -> str | None:
        name = self.names.get(player_id)
        if name is None:
            found = self._stored_names([UUID(player_id)])
            name = found.get(UUID(player_id))
            if name is not None:
                self.names[player_id] = name
        return name

    def _entrant(self, entrant: str, seat: int | None = None) -> dict[str, Any]:
        shown: dict[str, Any] = {} if seat is None else {"seat": seat}
        if entrant.startswith(BOT_ENTRANT):
            return shown | {"entrant": entrant, "bot": entrant[len(BOT_ENTRANT) :].split("#", 1)[0]}
        return shown | {"entrant": entrant, "player_id": entrant, "name": self._name(entrant)}

    def _seats(self, tournament: Tournament, played: Round, table: int) -> list[dict[str, Any]]:
        """A table's seats as its game has them: a bot that sat in for an entrant who had dropped out
        is named as the bot, with whom it stood in for."""
        stand_ins = played.stand_ins.get(table, ())
        seats: list[dict[str, Any]] = []
        for seat, entrant in enumerate(played.tables[table]):
            if seat in stand_ins:
                bot = tournament.game_seat(entrant)
                seats.append(self._entrant(bot, seat) | {"stand_in_for": self._entrant(entrant)})
            else:
                seats.append(self._entrant(entrant, seat))
        return seats

    # ------------------------------------------------------------------
    # events to deliveries

    def _deliver(
        self,
        out: list[tuple[Any, ...]],
        league_id: UUID,
        kind: str,
        event: Any,
        position: int,
        data: dict[str, Any],
        player: str | None = None,
    ) -> None:
        for hook in self.hooks.values():
            if not hook.enabled or hook.league_id != league_id or kind not in hook.events:
                continue
            if player is not None and player not in hook.players:
                continue
            made = delivery_id(hook.hook_id, position, kind)
            occurred: datetime = event.timestamp
            body = _json(
                {
                    "id": str(made),
                    "event": kind,
                    "occurred_at": occurred.isoformat(),
                    "league_id": str(league_id),
                    "data": data,
                }
            )
            created = occurred.timestamp()
            out.append((made, hook.hook_id, position, kind, body, created, created))

    def tournament_event(
        self, tournament: Tournament, event: Any, position: int, out: list[tuple[Any, ...]]
    ) -> None:
        """After the projection folded ``event`` into ``tournament``."""
        league = tournament.league_id
        if isinstance(event, Tournament.TableGameCreated):
            played = tournament.rounds[event.round_no - 1]
            head = {
                "tournament_id": str(tournament.id),
                "tournament": tournament.name,
                "round_no": event.round_no,
            }
            seats = self._seats(tournament, played, event.table)
            table = {"table": event.table, "game_id": str(event.game_id), "seats": seats}
            self._deliver(out, league, "table_ready", event, position, head | table)
            if len(played.games) == len(played.tables):
                tables = [
                    {
                        "table": number,
                        "game_id": str(played.games[number]),
                        "seats": self._seats(tournament, played, number),
                    }
                    for number in range(len(played.tables))
                ]
                byes = [self._entrant(entrant) for entrant in played.byes]
                self._deliver(
                    out, league, "round_started", event, position, head | {"tables": tables, "byes": byes}
                )
        elif isinstance(event, Tournament.Finished):
            data = {
                "tournament_id": str(tournament.id),
                "tournament": tournament.name,
                "rounds": len(tournament.rounds),
                "winners": [self._entrant(entrant) for entrant in event.winners],
                # rank None: no result (a no-show, or one who dropped out before their first table)
                "ranking": [
                    self._entrant(placing.entrant)
                    | {"rank": placing.rank if placing.played else None, "dropped": placing.dropped}
                    for placing in tournament.standings()
                ],
            }
            self._deliver(out, league, "tournament_finished", event, position, data)

    def game_event(self, game: Game, event: Any, position: int, out: list[tuple[Any, ...]]) -> None:
        """After the projection folded ``event`` into ``game``: a dispute raised or ruled on."""
        league = game.league_id
        assert league is not None
        head = {"game_id": str(game.id), "event_number": event.originator_version}
        if isinstance(event, Game.DisputeRaised):
            dispute = event.dispute
            data = head | {
                "dispute": dispute.number,
                "raised_by": dispute.raised_by.role,
                "seat": dispute.seat,
                "about": dispute.about,
            }
            self._deliver(out, league, "dispute_raised", event, position, data)
        elif isinstance(event, Game.RulingGiven):
            self._deliver(out, league, "ruling_given", event, position, head | _ruling(event))

    def turn(self, game: Game, seat: int, event: Any, position: int, out: list[tuple[Any, ...]]) -> None:
        """A change to ``game`` left a person to move at ``seat`` (``GamesFold.settled``); ``event``:
        its last event."""
        league = game.league_id
        assert league is not None
        player = game.seats[seat].name
        data = {
            "game_id": str(game.id),
            "event_number": event.originator_version,
            "seat": seat,
            "player_id": player,
            "name": self._name(player),
        }
        self._deliver(out, league, TURN, event, position, data, player=player)


def erased_from(payload: bytes, player_id: str) -> bytes | None:
    """The payload with the player named "erased player" wherever it names them; None when it does not."""
    body = _from_json(payload)
    found = False

    def walk(value: Any) -> None:
        nonlocal found
        if isinstance(value, dict):
            if value.get("player_id") == player_id and value.get("name") != ERASED_NAME:
                value["name"] = ERASED_NAME
                found = True
            for inner in value.values():
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)

    walk(body)
    # the same encoder that made it: the body differs from the one made only in the names
    return _json(body) if found else None


def _ruling(event: Game.RulingGiven) -> dict[str, Any]:
    """What a ruling says in public: its kind and numbers, never its note (free text)."""
    head = {"dispute": event.dispute}
    ruling: Ruling = event.ruling
    match ruling:
        case Penalty(seat=seat, cards=cards):
            return head | {"ruling": "penalty", "seat": seat, "cards": cards}
        case Void(from_event=from_event):
            return head | {"ruling": "void", "from_event": from_event}
        case Resume():
            return head | {"ruling": "resume"}
        case Correct(round_no=round_no):
            # the entry itself stays on the score sheet: a hand entered there is a player's own
            return head | {"ruling": "correct", "round": round_no}
        case _:
            assert_never(ruling)
