"""Modals: legacy text inputs in action rows, discord.py 2.6+ Label-wrapped inputs and selects, the 2.7 radio
groups, checkboxes and file uploads, and the checks Discord's client and API make."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from tests.fakediscord import Attachment, InteractionError
from tests.fakediscord_tests.conftest import Bot, World

pytestmark = pytest.mark.timeout(20)


class BidModal(discord.ui.Modal, title="Place a bid"):
    """Every kind of modal field discord.py 2.7 can send."""

    legacy = discord.ui.TextInput(label="Note", custom_id="note", required=False, max_length=20)
    amount = discord.ui.Label(
        text="Amount", description="garnets", component=discord.ui.TextInput(custom_id="amount", max_length=4)
    )
    target = discord.ui.Label(
        text="Lot",
        component=discord.ui.Select(
            custom_id="lot", options=[discord.SelectOption(label=f"Lot {n}", value=str(n)) for n in (1, 2, 3)]
        ),
    )
    partner = discord.ui.Label(text="Partner", component=discord.ui.UserSelect(custom_id="partner", required=False))
    rules = discord.ui.TextDisplay("Bids are final.")

    def __init__(self, got: dict[str, Any]) -> None:
        super().__init__(custom_id="bid-modal")
        self.got = got

    async def on_submit(self, interaction: discord.Interaction) -> None:
        amount = self.amount.component
        lot = self.target.component
        partner = self.partner.component
        assert isinstance(amount, discord.ui.TextInput) and isinstance(lot, discord.ui.Select)
        assert isinstance(partner, discord.ui.UserSelect)
        self.got.update(note=self.legacy.value, amount=amount.value, lot=lot.values, partner=partner.values)
        await interaction.response.send_message(f"bid {amount.value} on lot {lot.values[0]}", ephemeral=True)


class ChoicesModal(discord.ui.Modal, title="House rules"):
    speed = discord.ui.Label(
        text="Speed",
        component=discord.ui.RadioGroup(
            custom_id="speed",
            options=[
                discord.RadioGroupOption(label="Fast", value="fast"),
                discord.RadioGroupOption(label="Slow", value="slow"),
            ],
        ),
    )
    extras = discord.ui.Label(
        text="Extras",
        component=discord.ui.CheckboxGroup(
            custom_id="extras",
            options=[
                discord.CheckboxGroupOption(label="Bots", value="bots"),
                discord.CheckboxGroupOption(label="Timer", value="timer"),
            ],
            required=False,
        ),
    )
    public = discord.ui.Label(text="Public game", component=discord.ui.Checkbox(custom_id="public"))
    proof = discord.ui.Label(text="Proof", component=discord.ui.FileUpload(custom_id="proof", required=False))

    def __init__(self, got: dict[str, Any]) -> None:
        super().__init__(custom_id="rules-modal")
        self.got = got

    async def on_submit(self, interaction: discord.Interaction) -> None:
        for label in (self.speed, self.extras, self.public, self.proof):
            item = label.component
            self.got[item.custom_id] = getattr(item, "values", None) if hasattr(item, "values") else item.value  # type: ignore[attr-defined]
        uploads = self.got["proof"]
        self.got["proof"] = [(a.filename, await a.read()) for a in uploads]
        await interaction.response.send_message("rules saved", ephemeral=True)


def modal_bot(got: dict[str, Any]) -> Bot:
    bot = Bot()

    @bot.tree.command(description="Bid")
    async def bid(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(BidModal(got))

    @bot.tree.command(description="Rules")
    async def rules(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(ChoicesModal(got))

    @bot.tree.command(description="A modal Discord refuses")
    async def broken(interaction: discord.Interaction) -> None:
        modal = discord.ui.Modal(title="x" * 46, custom_id="too-long")
        modal.add_item(discord.ui.TextInput(label="a", custom_id="a"))
        try:
            await interaction.response.send_modal(modal)
        except discord.HTTPException as exc:
            got["error"] = exc

    return bot


async def test_label_wrapped_inputs_and_selects(world: World) -> None:
    fd, got = world.fd, {}
    await world.start(modal_bot(got))
    prompt = await fd.slash(world.alice, world.chan, "bid")
    modal = prompt.modal
    assert modal is not None and modal.title == "Place a bid"
    assert modal.input_ids() == ["note", "amount", "lot", "partner"]
    assert [c["type"] for c in modal.components] == [1, 18, 18, 18, 10]

    done = await fd.submit_modal(world.alice, modal, {"amount": "40", "lot": ["2"], "partner": [world.bob]})
    assert done.content == "bid 40 on lot 2" and done.ephemeral
    assert got["note"] == "" and got["amount"] == "40" and got["lot"] == ["2"]
    assert [m.id for m in got["partner"]] == [world.bob.id]

    data = world.interaction_payloads()[-1]["data"]
    assert data["custom_id"] == "bid-modal"
    row, amount, lot, partner, text = data["components"]
    assert row["type"] == 1 and row["components"][0] == {"type": 4, "id": 2, "custom_id": "note", "value": ""}
    assert amount["type"] == 18 and amount["component"]["value"] == "40"
    assert lot["component"] == {"type": 3, "id": lot["component"]["id"], "custom_id": "lot", "values": ["2"]}
    assert partner["component"]["values"] == [str(world.bob.id)]
    assert list(data["resolved"]["users"]) == [str(world.bob.id)]
    assert text == {"type": 10, "id": text["id"], "content": "Bids are final."}


async def test_radio_groups_checkboxes_and_file_uploads(world: World) -> None:
    fd, got = world.fd, {}
    await world.start(modal_bot(got))
    prompt = await fd.slash(world.host, world.chan, "rules")
    assert prompt.modal is not None
    values = {"speed": "slow", "extras": ["timer"], "public": True, "proof": [Attachment("proof.txt", b"signed")]}
    done = await fd.submit_modal(world.host, prompt.modal, values)
    assert done.content == "rules saved"
    assert got == {"speed": "slow", "extras": ["timer"], "public": True, "proof": [("proof.txt", b"signed")]}


async def test_what_discord_would_not_let_through(world: World) -> None:
    fd, got = world.fd, {}
    await world.start(modal_bot(got))
    prompt = await fd.slash(world.alice, world.chan, "bid")
    modal = prompt.modal
    assert modal is not None
    with pytest.raises(InteractionError, match="'amount' is required"):
        await fd.submit_modal(world.alice, modal, {"lot": ["1"]})
    with pytest.raises(InteractionError, match="takes 0 to 4 characters"):
        await fd.submit_modal(world.alice, modal, {"amount": "12345", "lot": ["1"]})
    with pytest.raises(InteractionError, match="has no options"):
        await fd.submit_modal(world.alice, modal, {"amount": "1", "lot": ["9"]})
    with pytest.raises(InteractionError, match="has no inputs"):
        await fd.submit_modal(world.alice, modal, {"amount": "1", "lot": ["1"], "bogus": "x"})
    with pytest.raises(InteractionError, match="shown to alice, not bob"):
        await fd.submit_modal(world.bob, modal, {"amount": "1", "lot": ["1"]})
    with pytest.raises(InteractionError, match="is required"):
        rules = await fd.slash(world.host, world.chan, "rules")
        await fd.submit_modal(world.host, rules.modal, {"public": True})

    with pytest.raises(AssertionError, match="did not answer"):  # the bot's modal was refused: no answer
        await fd.slash(world.alice, world.chan, "broken", timeout=0.5)
    exc = got["error"]
    assert exc.status == 400 and exc.code == 50035 and "data.title" in exc.text
    assert fd.interactions[-1].refused == [(400, "Invalid Form Body")]
