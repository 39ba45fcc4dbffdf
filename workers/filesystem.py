"""kombu's filesystem transport, made safe for a writer and a reader at the same moment.

The stock one creates a message's file and then writes it, and its reader takes
any file it lists: a reader that comes between the two takes an empty message,
fails to decode it and stops the whole worker ("Unrecoverable error:
JSONDecodeError", kombu issue #1551). Here a message is written under a name the
reader ignores and renamed into place once complete (a rename within a folder
is atomic), and a reader claims a message by renaming it within the folder, so
of two readers exactly one gets it (the stock one moves it to the system's temp
folder, a copy when that is another filesystem).

``workers.app`` names this transport (``broker_transport``) for the embedded
broker, in every process that queues or runs tasks.
"""

import os
import uuid
from queue import Empty
from time import monotonic
from typing import Any

from kombu.exceptions import ChannelError
from kombu.transport import filesystem
from kombu.utils.encoding import bytes_to_str, str_to_bytes
from kombu.utils.json import dumps, loads

# a name starting with a dot is not a message: the reader matches "<stamp>.<queue>.msg" after the first dot
_HIDDEN = "."


class Channel(filesystem.Channel):
    # kombu's own filesystem Channel, overridden here as it is, already differs from its base's
    def _put(self, queue: str, payload: Any, **kwargs: Any) -> None:  # type: ignore[override]
        name = f"{round(monotonic() * 1000)}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = os.path.join(self.data_folder_out, f"{_HIDDEN}{name}.part")
        try:
            with open(partial, "wb") as file:
                file.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as error:
            raise ChannelError(f"Cannot add file {final!r} to directory") from error

    def _get(self, queue: str) -> Any:  # type: ignore[override]  # as kombu's filesystem Channel
        wanted = f"{queue}.msg"
        for name in sorted(os.listdir(self.data_folder_in)):
            if name.startswith(_HIDDEN) or name.partition(".")[2] != wanted:
                continue
            claimed = os.path.join(self.data_folder_in, f"{_HIDDEN}{name}.{uuid.uuid4().hex}.taken")
            try:
                os.rename(os.path.join(self.data_folder_in, name), claimed)
            except OSError:  # another reader took it first
                continue
            try:
                with open(claimed, "rb") as file:
                    payload = file.read()
                os.remove(claimed)
            except OSError as error:
                raise ChannelError(f"Cannot read file {claimed!r} from queue.") from error
            return loads(bytes_to_str(payload))
        raise Empty()


class Transport(filesystem.Transport):
    Channel = Channel
