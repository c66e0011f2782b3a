"""The outbox's calls to Discord (bot/sending.py): the JSON they send, and refusals carried across a process."""

from __future__ import annotations

import json
import pickle

import discord
import pytest

from bot.sending import Outgoing, Picture, SenderLost, _params, rebuilt, refusal


class _Response:
    def __init__(self, status: int, reason: str) -> None:
        self.status = status
        self.reason = reason


@pytest.mark.parametrize(
    "exc",
    [
        discord.Forbidden(_Response(403, "Forbidden"), {"code": 50007, "message": "Cannot send messages to this user"}),
        discord.NotFound(_Response(404, "Not Found"), {"code": 10003, "message": "Unknown Channel"}),
        discord.DiscordServerError(_Response(503, "Service Unavailable"), {"code": 0, "message": "upstream"}),
        discord.HTTPException(_Response(400, "Bad Request"), {"code": 50035, "message": "Invalid Form Body"}),
    ],
)
def test_a_refusal_comes_back_as_the_same_exception(exc: discord.HTTPException) -> None:
    again = rebuilt(pickle.loads(pickle.dumps(refusal(exc))))
    assert type(again) is type(exc)
    assert isinstance(again, discord.HTTPException)
    assert (again.status, again.code, again.text, str(again)) == (exc.status, exc.code, exc.text, str(exc))


def test_a_timeout_and_a_network_error_come_back_as_errors_delivery_retries() -> None:
    assert type(rebuilt(refusal(TimeoutError("slow")))) is TimeoutError
    lost = rebuilt(refusal(ConnectionResetError("reset by peer")))
    assert isinstance(lost, SenderLost) and isinstance(lost, OSError)
    assert "ConnectionResetError" in str(lost) and "reset by peer" in str(lost)


def test_a_post_carries_its_nonce_mentions_and_components() -> None:
    components = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "Join", "custom_id": "host:join:1"}]}]
    mentions = {"parse": [], "users": ["7"]}
    params = _params(Outgoing(5, "hello <@7>", mentions, components, "ob123"))
    assert params.payload == {
        "content": "hello <@7>",
        "tts": False,
        "components": components,
        "nonce": "ob123",
        "enforce_nonce": True,
        "allowed_mentions": mentions,
    }
    assert not params.files


def test_no_components_leaves_a_message_s_buttons_alone_and_an_empty_list_clears_them() -> None:
    assert "components" not in _params(Outgoing(5, "x")).payload
    assert _params(Outgoing(5, "x", components=[])).payload["components"] == []


def test_a_picture_goes_as_a_file_with_the_whole_payload_in_payload_json() -> None:
    components = [{"type": 1, "components": []}]
    mentions = {"parse": []}
    out = Outgoing(5, "board", mentions, components, "ob9", Picture(b"\x89PNG....", "board.png", "the board"))
    params = _params(out)
    sent = json.loads(next(p["value"] for p in params.multipart if p["name"] == "payload_json"))
    assert sent["components"] == components and sent["allowed_mentions"] == mentions
    assert sent["nonce"] == "ob9" and sent["enforce_nonce"] is True and sent["content"] == "board"
    assert sent["attachments"] == [{"id": 0, "filename": "board.png", "description": "the board"}]
    assert [f.filename for f in params.files] == ["board.png"]
    assert params.files[0].fp.read() == b"\x89PNG...."
