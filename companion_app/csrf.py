"""Cross-site request forgery protection: a per-session token every state-changing request must echo.

Forms carry it as the hidden field `csrf_token`; scripts send it in the `X-CSRF-Token` header, read from
the page's `<meta name="csrf-token">`. A page on another site can make the browser post, but cannot read
the token, so its request is refused.
"""

from __future__ import annotations

import hmac
import secrets

from flask import Flask, abort, request, session

SESSION_KEY = "csrf_token"
FORM_FIELD = "csrf_token"
HEADER = "X-CSRF-Token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def csrf_token() -> str:
    """This session's token, created on first use."""
    token = session.get(SESSION_KEY)
    if not isinstance(token, str):
        token = secrets.token_urlsafe(32)
        session[SESSION_KEY] = token
    return token


def check_request() -> None:
    if request.method in SAFE_METHODS:
        return
    expected = session.get(SESSION_KEY)
    sent = request.headers.get(HEADER) or request.form.get(FORM_FIELD, "")
    if not isinstance(expected, str) or not hmac.compare_digest(expected.encode(), sent.encode()):
        abort(
            403, description="This form has expired or came from another site. Reload the page and try again."
        )


def init_app(app: Flask) -> None:
    app.before_request(check_request)
    app.jinja_env.globals["csrf_token"] = csrf_token
