"""Live updates: a server-sent event stream per game, fed by polling the events table.

Polling the store (rather than an in-process queue) means every server thread and process sees every
change. A stream ends when waitress reports the phone gone, or after `LIVE_STREAM_SECONDS`, so no server
thread is held for long; the browser's EventSource reconnects on its own and resumes after the last event
it saw (`Last-Event-ID`).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

from flask import Blueprint, Response, current_app, request, stream_with_context

from companion_app import history
from companion_app.pages import load_game

bp = Blueprint("live", __name__, url_prefix="/g/<token>")

RECONNECT_MS = 500


@bp.get("/events")
def events(token: str) -> Response:
    game = load_game(token)
    after = _resume_point(game)
    poll = float(current_app.config["LIVE_POLL_SECONDS"])
    lifetime = float(current_app.config["LIVE_STREAM_SECONDS"])
    heartbeat = float(current_app.config["LIVE_HEARTBEAT_SECONDS"])
    client_gone = request.environ.get("waitress.client_disconnected", lambda: False)

    def stream() -> Iterator[str]:
        last_seen = after
        started = last_sent = time.monotonic()
        yield f"retry: {RECONNECT_MS}\n\n"
        while time.monotonic() - started < lifetime and not client_gone():
            for event in history.events_after(game, last_seen):
                payload = {"kind": event.kind, "summary": event.summary, "at": event.created_at}
                yield f"id: {event.id}\nevent: change\ndata: {json.dumps(payload)}\n\n"
                last_seen = event.id
                last_sent = time.monotonic()
            if time.monotonic() - last_sent >= heartbeat:
                yield ": still here\n\n"
                last_sent = time.monotonic()
            time.sleep(poll)

    headers = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}
    return Response(stream_with_context(stream()), mimetype="text/event-stream", headers=headers)


def _resume_point(game: history.Game) -> int:
    """The last event this client has: from the reconnecting browser's header, the page, or now."""
    for sent in (request.headers.get("Last-Event-ID"), request.args.get("after")):
        if sent is not None and sent.isdigit():
            return int(sent)
    return history.last_event_id(game)
