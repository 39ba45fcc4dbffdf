"""Celery's consumer, surviving the loss of a Redis broker (``worker_consumer`` in ``workers.app``).

On a lost connection, celery 5.7's consumer first ``collect()``s the connection, which
dismantles its transport (``connection.client`` becomes None), then closes it again. That
second close restores the unacknowledged messages of a channel once more, for which kombu's
Redis transport builds a new client from ``connection.client.hostname``: an AttributeError,
which ``ignore_errors`` lets through, and the worker stopped with "Unrecoverable error:
AttributeError ... 'hostname'" instead of reconnecting. Here that close is quiet: the first
one restored those messages already (and Redis hands back any left after the visibility
timeout), and the consumer goes on to reconnect as it does after any other lost connection.
"""

import logging
from typing import Any

from celery.worker.consumer import Consumer as CeleryConsumer

log = logging.getLogger(__name__)


class Consumer(CeleryConsumer):
    def on_connection_error_after_connected(self, exc: Any) -> None:
        connection = self.connection
        if connection is not None:
            close = connection.close

            def close_quietly() -> None:
                try:
                    close()
                except AttributeError as error:  # the transport collect() dismantled: nothing left to close
                    log.info("the lost broker connection was dismantled already: %r", error)

            connection.close = close_quietly  # an instance attribute: this connection only
        super().on_connection_error_after_connected(exc)
