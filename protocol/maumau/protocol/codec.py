"""The sans-IO codec: bytes in, messages out; messages in, bytes out.

In the style of h11, a :class:`Connection` does no I/O. The owner feeds it what the
socket gave with :meth:`Connection.receive_data` (``b""`` for end of stream), then
calls :meth:`Connection.next_event` until it returns :data:`NEED_DATA`; to send, it
calls :meth:`Connection.send`, which returns the bytes to write. The trio server and
the asyncio client both use it.

Framing: every message is one frame, a 4-byte big-endian unsigned length followed by
that many bytes of msgpack holding one map. The length comes first so that a frame
larger than ``max_frame`` (64 KiB by default) is refused before any of it is buffered.

The connection's state is a table::

    role    state       receives                  sends                  moves to
    server  HANDSHAKE   hello only                welcome, error,        OPEN after welcome
                                                  goodbye, ping
    client  HANDSHAKE   welcome, error, goodbye   hello only             OPEN after welcome
    both    OPEN        peer's messages           own messages           CLOSED after goodbye/bye
    both    CLOSED      nothing                   nothing
    server  ERROR       (raises again)            error, goodbye         after a fatal peer error
    client  ERROR       (raises again)            nothing

Errors come in two kinds, as in h11: :class:`LocalProtocolError` when *we* try to send
something the protocol does not allow, and :class:`RemoteProtocolError` when the peer
sent something wrong. A remote error is ``fatal`` when the byte stream cannot be
trusted any more (bad framing, undecodable bytes, oversized frame): the connection
moves to ERROR and should be closed after an error message. A well-framed message that
fails validation is not fatal: the frame is skipped and the next one can be read.
"""

from __future__ import annotations

import struct
from enum import Enum
from typing import Any, Final

import msgpack

from .messages import (
    Bye,
    Error,
    Goodbye,
    Hello,
    Message,
    MessageError,
    Ping,
    Welcome,
    decode_message,
)
from .refusal import Refusal

DEFAULT_MAX_FRAME: Final = 64 * 1024
HEADER: Final = struct.Struct(">I")


class _Sentinel(Enum):
    NEED_DATA = "NEED_DATA"
    CLOSED = "CLOSED"


NEED_DATA: Final = _Sentinel.NEED_DATA
"""next_event(): no complete frame is buffered; feed more bytes."""
PEER_CLOSED: Final = _Sentinel.CLOSED
"""next_event(): the peer ended the stream (receive_data(b"") was called)."""


class State(Enum):
    HANDSHAKE = "HANDSHAKE"
    OPEN = "OPEN"
    CLOSED = "CLOSED"
    ERROR = "ERROR"


class ProtocolError(Refusal):
    """A refusal of the codec; ``ref``: the type of the message it is about, if any."""

    def __init__(
        self,
        code: str,
        message: str,
        ref: str | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(code, message, details)
        self.ref = ref


class LocalProtocolError(ProtocolError):
    """We tried to send something the protocol does not allow now."""


class RemoteProtocolError(ProtocolError):
    """The peer sent something invalid. ``fatal``: the stream can no longer be trusted."""

    def __init__(
        self,
        code: str,
        message: str,
        ref: str | None = None,
        fatal: bool = False,
        details: dict[str, Any] | None = None,
    ):
        super().__init__(code, message, ref, details)
        self.fatal = fatal


def _reject_ext(code: int, data: bytes) -> Any:
    raise ValueError(f"msgpack extension type {code} is not allowed")


def encode_frame(payload: dict[str, Any]) -> bytes:
    body: bytes = msgpack.packb(payload, use_bin_type=True)
    return HEADER.pack(len(body)) + body


# (role, kinds) of multi-message batches found sendable while OPEN; only state and
# role decide that, so the check is done once.
_OPEN_BATCHES: set[tuple[str, tuple[type[Message], ...]]] = set()


class Connection:
    """One end of a maumau connection. ``role`` is ``"client"`` or ``"server"``."""

    def __init__(self, role: str, max_frame: int = DEFAULT_MAX_FRAME) -> None:
        if role not in ("client", "server"):
            raise ValueError("role must be 'client' or 'server'")
        self.role = role
        self.peer = "server" if role == "client" else "client"
        self.max_frame = max_frame
        self.state = State.HANDSHAKE
        self._buffer = bytearray()
        self._eof = False
        self._fatal: RemoteProtocolError | None = None
        self.frames_received = 0

    # --- receiving -----------------------------------------------------------------

    def receive_data(self, data: bytes) -> None:
        """Buffer bytes from the peer; ``b""`` means the peer closed its side."""
        if data:
            if self._eof:
                raise LocalProtocolError("receive_after_eof", "data received after end of stream")
            self._buffer += data
        else:
            self._eof = True

    def next_event(self) -> Message | _Sentinel:
        """The next message, NEED_DATA, or PEER_CLOSED; raises RemoteProtocolError."""
        if self._fatal is not None:
            raise self._fatal
        buffer = self._buffer
        if len(buffer) < 4:
            return self._end_or_need()
        (length,) = HEADER.unpack_from(buffer)
        if length > self.max_frame:
            self._fail(
                "frame_too_large",
                f"frame of {length} bytes exceeds {self.max_frame}",
                {"count": length, "limit": self.max_frame},
            )
        if length == 0:
            self._fail("bad_frame", "empty frame")
        if len(buffer) < 4 + length:
            return self._end_or_need()
        body = bytes(buffer[4 : 4 + length])
        del buffer[: 4 + length]
        self.frames_received += 1
        try:
            data = msgpack.unpackb(
                body, raw=False, strict_map_key=True, ext_hook=_reject_ext, use_list=True
            )
        except (ValueError, msgpack.UnpackException) as error:
            self._fail("undecodable", f"frame is not valid msgpack: {error}")
        try:
            message = decode_message(data, self.peer)
        except MessageError as error:
            raise RemoteProtocolError(
                error.code, error.message, error.ref, details=error.details
            ) from None
        self._check_incoming(message)
        return message

    def _end_or_need(self) -> _Sentinel:
        if self._eof:
            if self._buffer:
                self._fail("truncated", "stream ended inside a frame")
            self.state = State.CLOSED
            return PEER_CLOSED
        return NEED_DATA

    def _fail(self, code: str, message: str, details: dict[str, Any] | None = None) -> Any:
        self.state = State.ERROR
        self._fatal = RemoteProtocolError(code, message, fatal=True, details=details)
        self._buffer.clear()
        raise self._fatal

    def _check_incoming(self, message: Message) -> None:
        if self.state is State.HANDSHAKE:
            if self.role == "server" and not isinstance(message, Hello):
                raise RemoteProtocolError(
                    "hello_first", "the first message must be hello", message.TYPE
                )
            if self.role == "client":
                if isinstance(message, Welcome):
                    self.state = State.OPEN
                elif not isinstance(message, Error | Goodbye):
                    raise RemoteProtocolError(
                        "welcome_first", "the server must answer hello first", message.TYPE
                    )
        elif self.state is State.CLOSED:
            raise RemoteProtocolError("closed", "message after the connection was closed")
        if isinstance(message, Bye | Goodbye):
            self.state = State.CLOSED

    # --- sending -------------------------------------------------------------------

    def send(self, message: Message, frame: bytes | None = None) -> bytes:
        """The bytes that carry ``message``; raises LocalProtocolError if not allowed.

        ``frame`` may pass in ``encode_frame(message.to_wire())`` already made, so that
        one message sent to many connections is encoded once.
        """
        if frame is None:
            frame = encode_frame(message.to_wire())
        return self.send_frame(type(message), frame)

    def send_frames(self, kinds: tuple[type[Message], ...], frames: bytes) -> bytes:
        """Like :meth:`send_frame` for several ready-made frames in one buffer, holding
        messages of the classes ``kinds`` (each frame made by :func:`encode_frame`).
        Messages that change the connection's state must be sent alone."""
        if self.state is State.OPEN and (self.role, kinds) in _OPEN_BATCHES:
            return frames  # checked before: these kinds may go out while OPEN
        if len(kinds) == 1:
            return self.send_frame(kinds[0], frames)
        for kind in kinds:
            if kind in (Welcome, Hello, Bye, Goodbye):
                raise LocalProtocolError("not_batchable", f"{kind.TYPE} must be sent alone")
            self._check_send(kind)
        if self.state is State.OPEN:
            _OPEN_BATCHES.add((self.role, kinds))
        return frames

    def send_frame(self, kind: type[Message], frame: bytes) -> bytes:
        """Check that a message of class ``kind`` may be sent now, as the ready-made
        ``frame``, and return it. The caller vouches that the frame holds such a message."""
        self._check_send(kind)
        if len(frame) - 4 > self.max_frame:
            raise LocalProtocolError("frame_too_large", f"{kind.TYPE} would exceed the frame limit")
        # Only a send that succeeds changes the state.
        if kind is Welcome and self.state is State.HANDSHAKE:
            self.state = State.OPEN
        if kind in (Bye, Goodbye):
            self.state = State.CLOSED
        return frame

    def _check_send(self, kind: type[Message]) -> None:
        """Raise LocalProtocolError unless a message of class ``kind`` may be sent now."""
        if kind.SENDER not in ("both", self.role):
            raise LocalProtocolError("wrong_sender", f"a {self.role} does not send {kind.TYPE}")
        state = self.state
        if state is State.CLOSED:
            raise LocalProtocolError("closed", "the connection is closed")
        if state is State.HANDSHAKE:
            if self.role == "client" and kind is not Hello:
                raise LocalProtocolError("hello_first", "a client must send hello first")
            if self.role == "server" and kind not in (Welcome, Error, Goodbye, Ping):
                raise LocalProtocolError("welcome_first", "the server must send welcome first")
        elif state is State.ERROR and kind not in (Error, Goodbye):
            raise LocalProtocolError("errored", "after a fatal error only error or goodbye")
