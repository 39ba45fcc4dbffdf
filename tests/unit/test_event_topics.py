"""Every event topic an earlier version stored still names its class: a module split keeps each
aggregate's event classes where they were (a class made in another module, as ``game_facts`` makes
``Game.CardPlayed``, is given the old module and qualified name), so old logs load as they are."""

import gzip
from pathlib import Path

import msgspec
from eventsourcing.utils import get_topic, resolve_topic

LOG = Path(__file__).parents[1] / "fixtures" / "log_ccffcb7.msgpack.gz"

# every topic of an event or snapshot class the domain stores (each aggregate's nested events and
# snapshots, as ``module:qualname``): those of before its modules were split, and any added since
STORED_TOPICS = [
    "service.domain.credential:Credential.Created",
    "service.domain.credential:Credential.Event",
    "service.domain.credential:Credential.Issued",
    "service.domain.credential:Credential.Minted",
    "service.domain.credential:Credential.Revoked",
    "service.domain.credential:Keyring.Added",
    "service.domain.credential:Keyring.Created",
    "service.domain.credential:Keyring.Event",
    "service.domain.credential:Keyring.Opened",
    "service.domain.game:Game.Abandoned",
    "service.domain.game:Game.CardKept",
    "service.domain.game:Game.CardPlayed",
    "service.domain.game:Game.CardsDrawn",
    "service.domain.game:Game.Created",
    "service.domain.game:Game.DealAnnulled",
    "service.domain.game:Game.DeckRevealed",
    "service.domain.game:Game.DeclarationChallenged",
    "service.domain.game:Game.DeclarationsRevealed",
    "service.domain.game:Game.DisputeRaised",
    "service.domain.game:Game.Event",
    "service.domain.game:Game.Fact",
    "service.domain.game:Game.HandShrank",
    "service.domain.game:Game.HiddenCardsReshuffled",
    "service.domain.game:Game.MatchEnded",
    "service.domain.game:Game.MatchStarted",
    "service.domain.game:Game.MissedCallChallenged",
    "service.domain.game:Game.PlayerChosen",
    "service.domain.game:Game.PlayerEliminated",
    "service.domain.game:Game.RoundConfirmed",
    "service.domain.game:Game.RoundDealt",
    "service.domain.game:Game.RoundEnded",
    "service.domain.game:Game.RoundEntered",
    "service.domain.game:Game.RulingGiven",
    "service.domain.game:Game.SeatForfeited",
    "service.domain.game:Game.Shuffled",
    "service.domain.game:Game.SkipTaken",
    "service.domain.game:Game.Snapshot",
    "service.domain.game:Game.StockRanOut",
    "service.domain.game:Game.StockRecycled",
    "service.domain.game:Game.SuitNamed",
    "service.domain.game:Game.TurnPassed",
    "service.domain.game:Game.TurnTimedOut",
    "service.domain.invitation:Invitation.Created",
    "service.domain.invitation:Invitation.Event",
    "service.domain.invitation:Invitation.Made",
    "service.domain.invitation:Invitation.Redeemed",
    "service.domain.invitation:Invitation.Revoked",
    "service.domain.league:League.Created",
    "service.domain.league:League.Event",
    "service.domain.league:League.Founded",
    "service.domain.league:League.MemberAdmitted",
    "service.domain.league:League.MemberRemoved",
    "service.domain.league:League.RefereeAppointed",
    "service.domain.league:League.RefereeDismissed",
    "service.domain.league:Player.Created",
    "service.domain.league:Player.Erased",
    "service.domain.league:Player.Event",
    "service.domain.league:Player.Registered",
    "service.domain.league:Player.Renamed",
    "service.domain.mao.aggregate:MaoGame.Created",
    "service.domain.mao.aggregate:MaoGame.Decided",
    "service.domain.mao.aggregate:MaoGame.Event",
    "service.domain.mao.aggregate:MaoGame.SeatForfeited",
    "service.domain.mao.aggregate:MaoGame.Started",
    "service.domain.password:Password.Changed",
    "service.domain.password:Password.Chosen",
    "service.domain.password:Password.Created",
    "service.domain.password:Password.Event",
    "service.domain.signin_link:SignInLink.Created",
    "service.domain.signin_link:SignInLink.Event",
    "service.domain.signin_link:SignInLink.Made",
    "service.domain.signin_link:SignInLink.Used",
    "service.domain.tournament:Tournament.Announced",
    "service.domain.tournament:Tournament.Cancelled",
    "service.domain.tournament:Tournament.CheckedIn",
    "service.domain.tournament:Tournament.Created",
    "service.domain.tournament:Tournament.Dropped",
    "service.domain.tournament:Tournament.Edited",
    "service.domain.tournament:Tournament.Event",
    "service.domain.tournament:Tournament.Finished",
    "service.domain.tournament:Tournament.Joined",
    "service.domain.tournament:Tournament.Left",
    "service.domain.tournament:Tournament.RoundFinished",
    "service.domain.tournament:Tournament.RoundPaired",
    "service.domain.tournament:Tournament.Started",
    "service.domain.tournament:Tournament.TableFinished",
    "service.domain.tournament:Tournament.TableGameCreated",
    "service.domain.tournament:Tournament.TableResultCorrected",
    "service.domain.tournament:Tournament.TableResultKept",
    "service.domain.webhook:Webhook.Created",
    "service.domain.webhook:Webhook.Disabled",
    "service.domain.webhook:Webhook.Enabled",
    "service.domain.webhook:Webhook.Event",
    "service.domain.webhook:Webhook.Registered",
    "service.domain.webhook:Webhook.Removed",
    "service.domain.webhook:Webhook.SecretRotated",
]


def test_every_topic_stored_before_the_split_resolves_to_a_class_of_that_topic():
    for topic in STORED_TOPICS:
        assert get_topic(resolve_topic(topic)) == topic


def test_every_topic_in_the_log_of_commit_ccffcb7_resolves_to_a_class_of_that_topic():
    with gzip.open(LOG) as stored:
        log = msgspec.msgpack.decode(stored.read())
    topics = {row[0] for row in [*log["events"], *log["snapshots"]]}
    assert len(topics) > 10 and topics <= set(STORED_TOPICS)
    for topic in topics:
        assert get_topic(resolve_topic(topic)) == topic
