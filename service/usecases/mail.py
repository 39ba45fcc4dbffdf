"""Mail: an invitation's or a sign-in link sent to an address given when it is made, through the
SMTP server ``MAUMAU_SMTP_URL`` names; without it nothing is mailed and nothing changes.

``smtp://[user:password@]host:port[?from=club@example.org&starttls=yes]``, or ``smtps://`` for TLS
from the start. The link is in the mail's text only: never in a log line (a failure logs its kind).
A mail that cannot be sent does not undo what was made: the page still shows the link to hand
over, and says the mail was not sent.
"""

import logging
import re
import smtplib
from email.message import EmailMessage
from urllib.parse import parse_qs, unquote, urlsplit

from service.domain.errors import RuleError
from service.settings import Settings

log = logging.getLogger(__name__)
TIMEOUT = 10.0  # seconds the SMTP server has to answer each step
# one address, as people type it: no spaces, no second address, no header tricks
ADDRESS = re.compile(r"^[^@\s,;<>\"']{1,64}@[^@\s,;<>\"']{1,253}\.[^@\s,;<>\"'.]{2,63}$")


def mails(settings: Settings) -> bool:
    """Whether the service sends mail at all."""
    return settings.smtp_url is not None


def checked_address(address: str) -> str:
    """The address as typed, trimmed; ``invalid_email`` when it does not read as one address."""
    address = address.strip()
    if not ADDRESS.fullmatch(address):
        raise RuleError("invalid_email")
    return address


def send(settings: Settings, to: str, subject: str, text: str) -> bool:
    """Send one plain-text mail; whether the server took it."""
    if settings.smtp_url is None:
        return False
    url = urlsplit(settings.smtp_url)
    query = parse_qs(url.query)
    host = url.hostname or "localhost"
    sender = query.get("from", [f"maumau@{host}"])[0]
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, subject
    message.set_content(text)
    connect = smtplib.SMTP_SSL if url.scheme == "smtps" else smtplib.SMTP
    try:
        with connect(host, url.port or (465 if url.scheme == "smtps" else 25), timeout=TIMEOUT) as server:
            if query.get("starttls", ["no"])[0] == "yes":
                server.starttls()
            if url.username:
                server.login(unquote(url.username), unquote(url.password or ""))
            server.send_message(message)
    except (OSError, smtplib.SMTPException) as error:
        log.warning("mail not sent", extra={"error": type(error).__name__})
        return False
    return True
