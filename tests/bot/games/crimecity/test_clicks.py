"""A whole game played with clicks, selects and modals only (issue 12): never a typed act, draft, guess
or friendship. The lobby message is edited, not re-posted; every button answers ephemerally and only
about the clicker's own seat; components keep working after a restart; the secret scan covers every
component label, value and custom id the bot ever sent.
"""

from __future__ import annotations

import re
from typing import Any

from rules.crimecity import ROLES
from tests.fakediscord import FakeDiscord
from tests.support.crimecity import CHAR_WORDS, assert_no_secret, match_of
from tests.support.table import NAMES, Table

ROLE_WORDS = {r.value for r in ROLES} | {r.title for r in ROLES}
SAFE_ID = re.compile(r"^(host:[a-z]+:\d+|cc:(panel|form|guess):\d+:[0-9a-f]{12}:[a-z0-9]+)$")


def lobby_posts(t: Table) -> list[Any]:
    return [m for m in t.fd.channel_messages(t.chan) if "a new game (#" in m.text()]


def button(message: Any, label: str) -> str:
    found = [b for b in message.buttons() if b.get("label") == label]
    assert found, f"no {label!r} button on {message.text()[:80]!r}: {[b.get('label') for b in message.buttons()]}"
    return found[0]["custom_id"]


def select_id(message: Any, suffix: str) -> tuple[str, list[str]]:
    for sel in message.selects():
        if sel["custom_id"].endswith(f":{suffix}"):
            return sel["custom_id"], [o["value"] for o in sel["options"]]
    raise AssertionError(f"no {suffix} select on {message.text()[:80]!r}")


async def draft_by_clicks(t: Table, who: Any, post: Any, bid: int) -> None:
    fd = t.fd
    form = await fd.click(who, post, button(post, "Submit"))
    assert form.ephemeral and "your draft" in form.text()
    cid, roles = select_id(form, "role")
    form = await fd.select(who, form, cid, [roles[-1]])  # last of the book's order first
    form = await fd.click(who, form, button(form, "Rest in the book's order"))
    cid, chars = select_id(form, "char")
    form = await fd.select(who, form, cid, [chars[-1]])
    prompt = await fd.click(who, form, button(form, "Bid…"))
    assert prompt.modal is not None
    form = await fd.submit_modal(who, prompt.modal, {prompt.modal.input_ids()[0]: str(bid)})
    assert f"Bid: **{bid}**" in form.text(), form.text()
    done = await fd.click(who, form, button(form, "Submit draft"))
    assert "Draft submission recorded" in done.text(), done.text()
    assert "Characters: 1." in done.text() and "8." in done.text(), "the full ranking is confirmed"


async def act_by_clicks(t: Table, who: Any, post: Any) -> str:
    """Submit from a board post: the first legal action, a second one if the rules want one, Submit."""
    fd = t.fd
    panel = await fd.click(who, post, button(post, "Submit"))
    assert panel.ephemeral and "your panel" in panel.text(), panel.text()
    cid, values = select_id(panel, "act")
    panel = await fd.select(who, panel, cid, [values[0]])
    if any(s["custom_id"].endswith(":act") for s in panel.selects()):
        cid, values = select_id(panel, "act")
        panel = await fd.select(who, panel, cid, [values[0]])
    panel = await fd.click(who, panel, button(panel, "Submit"))
    assert "actions recorded" in panel.text(), panel.text()
    return panel.text()


async def test_a_whole_game_by_clicks(tmp_path) -> None:
    async with FakeDiscord() as fd:
        guild = fd.add_guild("Crime Club")
        chan = guild.add_text_channel("crime-city")
        host = guild.add_member("hosty", manage_guild=True)
        players = {n: guild.add_member(n) for n in NAMES}
        t = Table(fd, guild, chan, host, players, tmp_path / "crimecity.db")
        await t.start_bot()

        await t.cmd(host, "new", deadline_hours=24.0, garnets=10)
        (lobby,) = lobby_posts(t)
        for n in NAMES:
            joined = await fd.click(players[n], lobby, button(lobby, "Join"))
            assert joined.ephemeral and "joined" in joined.text()
        await t.idle()
        (lobby,) = lobby_posts(t)
        assert "Players (5/5): andy, grunkle, cara, dev, eve" in lobby.text(), lobby.text()
        assert lobby.history, "the lobby message was edited in place"
        refused = await fd.click(players["eve"], lobby, button(lobby, "Start"))
        assert refused.ephemeral and "host" in refused.text()
        started = await fd.click(host, lobby, button(lobby, "Start"))
        assert started.ephemeral and "draft is open" in started.text()
        await t.idle()
        (draft_post,) = [m for m in fd.channel_messages(chan) if "the draft is open" in m.text()]
        for i, n in enumerate(NAMES):
            await draft_by_clicks(t, players[n], draft_post, bid=i % 2)
        await t.idle()

        # the rounds: the board post's Submit button, the panel's menus; friendship and the guess by menus
        rounds = 0
        while (await match_of(t)).phase == "round":
            rounds += 1
            post = [m for m in fd.channel_messages(chan) if "Submit" in [b.get("label") for b in m.buttons()]][-1]
            status = await fd.click(players["cara"], post, button(post, "My status"))
            assert status.ephemeral and "your status" in status.text()
            for n in NAMES:
                if rounds == 1 and n == "andy":  # a friendship purchase from the panel, with the cost shown
                    panel = await fd.click(players[n], post, button(post, "Submit"))
                    form = await fd.click(players[n], panel, button(panel, "Buy friendship…"))
                    a, options = select_id(form, "a")
                    form = await fd.select(players[n], form, a, [options[0]])
                    b, options = select_id(form, "b")
                    form = await fd.select(players[n], form, b, [options[1]])
                    assert "= **3 garnets**" in form.text()
                    form = await fd.click(players[n], form, button(form, "Buy (3 garnets)"))
                    assert "Purchases for this round" in form.text(), form.text()
                if rounds == 1 and n == "grunkle":  # the Mob Boss (CAST-EX's order) guesses by menus
                    panel = await fd.click(players[n], post, button(post, "Submit"))
                    if "Guess the roles…" in [b.get("label") for b in panel.buttons()]:
                        form = await fd.click(players[n], panel, button(panel, "Guess the roles…"))
                        assert form.components_v2
                        for i, sel in enumerate(form.selects()):  # each role once, "none" for the last three
                            pick = sel["options"][min(i, len(sel["options"]) - 1)]["value"]
                            form = await fd.select(players[n], form, sel["custom_id"], [pick])
                        form = await fd.click(players[n], form, button(form, "Submit guess"))
                        assert "Guess recorded" in form.text(), form.text()
                await act_by_clicks(t, players[n], post)
            await t.idle()
            assert rounds <= 6
        match = await match_of(t)
        if match.phase == "ec":  # the deciders choose from the menu their DM's Submit opens
            for seat in match.results["ec_pending"]["deciders"]:
                name = NAMES[int(seat[1:]) - 1]
                dm = [m for m in fd.dms(players[name]) if "you decide the EC" in m.text()][-1]
                form = await fd.click(players[name], dm, button(dm, "Submit"))
                cid, values = select_id(form, "ec")
                form = await fd.select(players[name], form, cid, [values[0]])
            await t.idle()
        assert (await match_of(t)).phase == "over"
        results = [m for m in fd.channel_messages(chan) if "game over" in m.text()][-1]
        history = await fd.click(players["dev"], results, button(results, "History"))
        assert history.ephemeral and "finished games" in history.text()

        # every board picture says in words what it shows (screen readers)
        pictures = [u for u in fd.uploads if u.filename == "board.png"]
        assert pictures and all(u.description and u.description.startswith("Crime City board") for u in pictures)
        # nothing public named a role, or paired a player with a character, before the reveal
        public = [m.text() for m in fd.channel_messages(chan) if "The reveal" not in m.text()]
        for text in public:
            assert_no_secret(text, "a post")
        for cid in {s for s in fd.component_strings() if s.startswith(("host:", "cc:"))}:
            assert SAFE_ID.match(cid), f"a custom id that says more than a game and a nonce: {cid}"
        for message in fd.channel_messages(chan):
            for comp in message.all_components():
                words = " ".join(str(comp.get(k, "")) for k in ("label", "placeholder", "custom_id"))
                assert not any(w.casefold() in words.casefold() for w in ROLE_WORDS | set(CHAR_WORDS)), words


async def test_buttons_work_after_a_restart_and_answer_only_the_clicker(table: Table) -> None:
    t = table
    fd = t.fd
    await t.cmd(t.host, "new", deadline_hours=24.0, garnets=10)
    (lobby,) = lobby_posts(t)
    for n in NAMES[:4]:
        await fd.click(t.players[n], lobby, button(lobby, "Join"))
    await t.stop_bot()
    await t.start_bot()
    joined = await fd.click(t.players["eve"], lobby, button(lobby, "Join"))
    assert "joined" in joined.text()
    await fd.click(t.host, lobby, button(lobby, "Start"))
    await t.idle()
    (draft_post,) = [m for m in fd.channel_messages(t.chan) if "the draft is open" in m.text()]
    status = await fd.click(t.players["andy"], draft_post, button(draft_post, "My status"))
    assert status.ephemeral and "your status" in status.text() and "Garnets: 10" in status.text()
    outsider = t.guild.add_member("zed")
    refused = await fd.click(outsider, draft_post, button(draft_post, "My status"))
    assert refused.ephemeral and "not a player" in refused.text()
    assert fd.ephemerals(outsider) == [refused], "an answer only the clicker sees"


async def test_a_bid_sent_after_a_restart_or_twice_is_still_read(table: Table) -> None:
    # discord.py drops a modal it does not hold in memory without a word: the bid is read by its custom id.
    t = table
    fd = t.fd
    await t.cmd(t.host, "new", deadline_hours=24.0, garnets=10)
    (lobby,) = lobby_posts(t)
    for n in NAMES:
        await fd.click(t.players[n], lobby, button(lobby, "Join"))
    await fd.click(t.host, lobby, button(lobby, "Start"))
    await t.idle()
    (draft_post,) = [m for m in fd.channel_messages(t.chan) if "the draft is open" in m.text()]
    andy = t.players["andy"]
    form = await fd.click(andy, draft_post, button(draft_post, "Submit"))
    prompt = await fd.click(andy, form, button(form, "Bid…"))
    assert prompt.modal is not None
    field = prompt.modal.input_ids()[0]
    await t.stop_bot()
    await t.start_bot()
    after = await fd.submit_modal(andy, prompt.modal, {field: "3"})
    assert "Bid: **3**" in after.text(), after.text()
    again = await fd.submit_modal(andy, prompt.modal, {field: "4"})
    assert "Bid: **4**" in again.text(), again.text()
    wrong = await fd.submit_modal(andy, prompt.modal, {field: "many"})
    assert wrong.ephemeral and "A bid is a whole number of garnets" in wrong.text(), wrong.text()


async def test_a_channel_without_attach_files_is_refused_at_new(table: Table) -> None:
    t = table
    chan = t.guild.add_text_channel("no-pictures")
    t.guild.set_permissions(chan, t.guild.bot_role, deny=1 << 15)  # Attach Files
    reply = await t.fd.slash(t.host, chan, "crimecity new")
    assert reply.ephemeral and "Attach Files" in reply.text(), reply.text()
    assert t.fd.channel_messages(chan) == []
    assert await t.bot.db.fetchone("SELECT id FROM games WHERE channel_id = ?", (chan.id,)) is None


async def test_the_lobby_pings_its_role_once_and_nobody_else(table: Table) -> None:
    t = table
    role = t.guild.add_role("game night")
    await t.cmd(t.host, "new", ping=role)
    (lobby,) = lobby_posts(t)
    # the first version pings; the bot's first edit (which may already have landed) does not
    first = lobby.history[0].get("content") if lobby.history else lobby.text()
    assert f"<@&{role.id}>" in (first or "")
    # the allowed mentions the lobby was first sent with (the interaction's reply), not the edit's
    (sent,) = [r.json["data"] for r in t.fd.requests if r.path.endswith("/callback") and r.json.get("data")
               and f"<@&{role.id}>" in (r.json["data"].get("content") or "")]
    mentions = sent.get("allowed_mentions")
    assert mentions is not None and [str(r) for r in mentions.get("roles") or []] == [str(role.id)], mentions
    assert not mentions.get("users") and "everyone" not in (mentions.get("parse") or [])
    await t.fd.click(t.players["andy"], lobby, button(lobby, "Join"))
    await t.idle()
    (lobby,) = lobby_posts(t)
    assert f"<@&{role.id}>" not in lobby.text(), "edits do not ping again"


async def test_one_lobby_message_for_five_joins_by_command(table: Table) -> None:
    t = table
    await t.cmd(t.host, "new")
    for n in NAMES:
        reply = await t.cmd(t.players[n], "join")
        assert reply.ephemeral and "You joined" in reply.text()
    await t.idle()
    assert len(t.fd.channel_messages(t.chan)) == 1
    (lobby,) = lobby_posts(t)
    assert "Players (5/5)" in lobby.text()
    assert any(w in lobby.text() for w in ("Join with the button",))
