"""Components V2 (discord.py LayoutView, flag 1 << 15): layouts, media, and the rules Discord enforces."""

from __future__ import annotations

import io
from typing import Any

import discord
import pytest
from discord.http import Route

from tests.fakediscord import perms
from tests.fakediscord.components import COMPONENTS_V2_FLAG
from tests.fakediscord_tests.conftest import Bot, World

pytestmark = pytest.mark.timeout(20)


class Board(discord.ui.LayoutView):
    """A game board: a container with text, a section with a button, media, a file and a select."""

    def __init__(self, round_no: int) -> None:
        super().__init__(timeout=30)
        self.presses: list[str] = []
        join = discord.ui.Button(label="Join", custom_id="board:join")
        join.callback = self.join  # type: ignore[method-assign]
        pick = discord.ui.Select(
            custom_id="board:pick", options=[discord.SelectOption(label=n, value=n.lower()) for n in ("Alley", "Bank")]
        )
        pick.callback = self.pick  # type: ignore[method-assign]
        self.container = discord.ui.Container(
            discord.ui.TextDisplay(f"## Round {round_no}"),
            discord.ui.Section(discord.ui.TextDisplay("Seats left: 3"), accessory=join),
            discord.ui.Separator(),
            discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://board.png", description="the city map")),
            discord.ui.File("attachment://rules.txt"),
            discord.ui.ActionRow(pick),
            accent_color=0xAA0000,
        )
        self.add_item(self.container)
        self.add_item(
            discord.ui.Section(
                discord.ui.TextDisplay("Host: hosty"), accessory=discord.ui.Thumbnail("https://example.com/host.png")
            )
        )

    async def join(self, interaction: discord.Interaction) -> None:
        self.presses.append(interaction.user.name)
        await interaction.response.edit_message(view=Board(2))

    async def pick(self, interaction: discord.Interaction) -> None:
        data: Any = interaction.data
        await interaction.response.send_message(f"going to {data['values'][0]}", ephemeral=True)


def files() -> list[discord.File]:
    return [
        discord.File(io.BytesIO(b"\x89PNG fake"), "board.png", description="the board"),
        discord.File(io.BytesIO(b"no cheating"), "rules.txt"),
    ]


async def test_a_layout_view_post_can_be_read_and_clicked(world: World) -> None:
    fd = world.fd
    bot = await world.start()
    board = Board(1)
    sent = await world.channel().send(view=board, files=files())
    [post] = fd.channel_messages(world.chan)
    assert post.components_v2 and post.flags & COMPONENTS_V2_FLAG and post.content == "" and post.embeds == []
    assert "## Round 1" in post.text() and "Seats left: 3" in post.text()
    assert post.text_displays() == ["## Round 1", "Seats left: 3", "Host: hosty"]
    assert [b["custom_id"] for b in post.buttons()] == ["board:join"]
    assert [s["custom_id"] for s in post.selects()] == ["board:pick"]
    assert [c["type"] for c in post.find_components(type=10)] == [10, 10, 10]
    ids = [c["id"] for c in post.all_components()]
    assert ids == list(range(1, len(ids) + 1))  # Discord numbers components in tree order
    gallery_url, file_url, thumb = post.media_urls()
    assert gallery_url.startswith(fd.base_url) and gallery_url.endswith("/board.png") and "rules.txt" in file_url
    assert thumb == "https://example.com/host.png"
    [gallery] = post.find_components(type=12)
    assert gallery["items"][0]["media"]["attachment_id"] == post.attachment_payloads[0]["id"]
    assert post.attachment_info()[0]["description"] == "the board"

    # discord.py parses what the fake echoed back
    assert sent.flags.components_v2
    assert [type(c).__name__ for c in sent.components] == ["Container", "SectionComponent"]

    reply = await fd.select(world.alice, post, "board:pick", ["bank"])
    assert reply.content == "going to bank" and reply.ephemeral
    same = await fd.click(world.alice, post, label="Join")  # the section's accessory button
    assert same is post and board.presses == ["alice"] and post.text_displays()[0] == "## Round 2"
    assert post.components_v2
    assert not fd.errors and bot.is_ready()


async def test_v2_rules_discord_enforces(world: World) -> None:
    fd = world.fd
    bot = await world.start()
    chan = world.channel()

    with pytest.raises(discord.HTTPException) as legacy:
        await chan.send("hello", view=Board(1), files=files())
    assert legacy.value.status == 400 and legacy.value.code == 50035 and "content" in legacy.value.text
    assert fd.channel_messages(world.chan) == []

    async def raw(components: list[dict[str, Any]], flags: int = COMPONENTS_V2_FLAG, **extra: Any) -> Any:
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=world.chan.id)
        return await bot.http.request(route, json={"components": components, "flags": flags, **extra})

    def button(custom_id: str, label: str = "ok") -> dict[str, Any]:
        return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}

    def select(options: list[dict[str, Any]], custom_id: str = "s") -> dict[str, Any]:
        return {"type": 1, "components": [{"type": 3, "custom_id": custom_id, "options": options}]}

    text = {"type": 10, "content": "hi"}
    cases = {
        "embeds": ([text], {"embeds": [{"title": "x"}]}),
        "components": ([{"type": 17, "components": [text] * 40}], {}),  # 41 in total
        "components.1.components.0.custom_id": (
            [{"type": 1, "components": [button("a")]}, {"type": 1, "components": [button("a")]}],
            {},
        ),
        "components.0.components.0.custom_id": ([{"type": 1, "components": [button("x" * 101)]}], {}),
        "components.0.components.0.label": ([{"type": 1, "components": [button("b", "y" * 81)]}], {}),
        "components.0.components.0.options": ([select([{"label": str(i), "value": str(i)} for i in range(26)])], {}),
        "components.0.components.0.options.1.value": (
            [select([{"label": "a", "value": "v"}, {"label": "b", "value": "v"}])],
            {},
        ),
        "components.0.components.0.options.0.label": ([select([{"label": "L" * 101, "value": "v"}])], {}),
        "components.0.components.0.options.0.value": ([select([{"label": "a", "value": "V" * 101}])], {}),
        "components.0.file.url": ([{"type": 13, "file": {"url": "attachment://missing.txt"}}], {}),
        "components.0.accessory": ([{"type": 9, "components": [text]}], {}),
    }
    for path, (components, extra) in cases.items():
        with pytest.raises(discord.HTTPException) as refused:
            await raw(components, **extra)
        assert refused.value.status == 400 and refused.value.code == 50035, path
        assert f"In {path}:" in refused.value.text, (path, refused.value.text)
    with pytest.raises(discord.HTTPException) as empty:
        await raw([])
    assert empty.value.code == 50006
    with pytest.raises(discord.HTTPException) as not_v2:  # layout components need the flag
        await raw([text], flags=0)
    assert "components.0.type" in not_v2.value.text

    ok = await raw([{"type": 17, "components": [text] * 39}])  # exactly 40
    assert ok["flags"] & COMPONENTS_V2_FLAG
    message = await chan.fetch_message(int(ok["id"]))
    with pytest.raises(discord.HTTPException) as edit:
        await message.edit(content="sneaky")  # the V2 flag stays: content is refused on edits too
    assert edit.value.code == 50035
    assert len(fd.channel_messages(world.chan)) == 1 and not fd.errors


async def test_v1_rows_are_checked_too(world: World) -> None:
    bot = await world.start()
    view = discord.ui.View()
    for n in range(3):
        view.add_item(discord.ui.Button(label=f"b{n}", custom_id="same"))  # discord.py does not check this
    with pytest.raises(discord.HTTPException) as dup:
        await world.channel(bot).send("dupes", view=view)
    assert dup.value.code == 50035 and "components.0.components.1.custom_id" in dup.value.text
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=world.chan.id)
    rows = [{"type": 1, "components": [{"type": 2, "style": 1, "label": "x", "custom_id": f"r{i}"}]} for i in range(6)]
    with pytest.raises(discord.HTTPException) as many:
        await bot.http.request(route, json={"content": "six rows", "components": rows})
    assert "In components:" in many.value.text


async def test_layout_views_in_interaction_replies_and_followups(world: World) -> None:
    fd = world.fd
    bot = Bot()

    @bot.tree.command(description="Private board")
    async def board(interaction: discord.Interaction) -> None:
        await interaction.response.send_message(view=Board(5), ephemeral=True, files=files())

    @bot.tree.command(description="Slow board")
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await interaction.followup.send(view=Board(6), files=files())

    await world.start(bot)
    mine = await fd.slash(world.alice, world.chan, "board")
    assert mine.ephemeral and mine.components_v2 and "## Round 5" in mine.text()
    public = await fd.slash(world.alice, world.chan, "slow")
    assert not public.ephemeral and public.components_v2 and "## Round 6" in public.text()
    assert await fd.click(world.bob, public, "board:join") is public and "## Round 2" in public.text()
    # interaction responses ignore channel permissions, as Discord's webhook-style responses do
    world.guild.set_permissions(world.chan, world.guild.bot_member, deny=perms.SEND_MESSAGES | perms.ATTACH_FILES)
    assert (await fd.slash(world.bob, world.chan, "board")).components_v2
