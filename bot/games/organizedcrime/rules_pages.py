"""`/organizedcrime rules [topic]`: the rules in short pages, in our own words (rule numbers as in
rulings.md, so a page can be checked against the reference). Numbers that come from the content files
(prices, deck contents) are read from them, never typed twice.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...host import EMBED_COLOUR, matches
from . import names as n
from .pack import PACK

CMD = "/organizedcrime"


@dataclass(frozen=True, slots=True)
class Page:
    topic: str
    title: str
    body: str

    def embed(self) -> dict[str, object]:
        return {"title": f"Organized Crime — {self.title}", "description": self.body, "colour": EMBED_COLOUR,
                "footer": {"text": f"{CMD} rules topic:<name> · topics: " + ", ".join(TOPICS)}}


def _c(name: str) -> int:
    return n.content().n(name)


def _content_text() -> str:
    if PACK.game is not PACK.house:  # the operator's own board and decks (CRIMECITY_CONTENT)
        return (
            f"This bot plays a group's own content: the board **{n.content().board_id}** "
            f"({len(n.content().kinds)} spaces), with its own catalogue and decks in place of the house ones. "
            "Its numbers (prices, money, votes) are in its rules.json.")
    return (
        "The Bylaws name their components but do not give them, so this game ships **house** versions: the "
        f"board (two rings with four Government crossings, {len(n.content().kinds)} spaces), the catalogue of "
        "Cities and categories, and the four decks with texts of our own. The seed's numbers (prices, money, "
        "votes) are kept exactly. A group owning the real game can replace the files (docs/organizedcrime/"
        "content.md).")


def _pages() -> dict[str, Page]:
    m = n.money
    return {p.topic: p for p in [
        Page("overview", "Overview", (
            f"{PACK.game.info.min_players} to {PACK.game.info.max_players} crime bosses share a city. Each starts "
            f"with {m(_c('start_money'))}, a Boss on his Home Base "
            f"and {_c('men')} Men to buy as Hit-Men or to use as Markers. **Last Boss standing wins** (R2): a "
            "player is out when his Boss leaves the board.\n\n"
            "**Setup**: the decks are shuffled, everyone rolls for the order of choosing Home Bases, then rolls "
            "again to see who plays first (R7–R12). Play goes to the left, in seat order.\n\n"
            f"Start with `{CMD} panel`: it always shows what you may do now. Topics: " + ", ".join(TOPICS) + ".")),
        Page("turn", "A turn", (
            "On your turn, in any order (R15):\n"
            f"• buy Hit-Men ({m(_c('man_price'))} each, placed in your Home Base) — `{CMD} buy hitmen`;\n"
            f"• buy a Power card ({m(_c('power_price'))}, drawn face down) — `{CMD} buy power`;\n"
            "• buy a Corrupt Official with a card you hold (its price plus the Marker) — "
            f"`{CMD} buy official`;\n"
            f"• collect your income, once, on request — `{CMD} income`; cash Money cards — `{CMD} cash`;\n"
            f"• **before the roll**, declare one or two movers, each with a direction (and maybe an attack) — "
            f"`{CMD} declare`;\n"
            f"• **roll** once (`{CMD} roll`), move each mover with its share, then act on the landings;\n"
            f"• **pass** the dice to end the turn (`{CMD} pass`).\n"
            "You must roll, and use the whole count (R16).")),
        Page("movement", "Movement", (
            "One mover takes the whole roll; two movers split it as evenly as possible (7 → 4 and 3), and you "
            "choose who moves first and with which share (R36–R37).\n\n"
            "A move is a chain of **items**: a *step* to a neighbouring space uses one count, a *rub-out* of an "
            "opposing piece on your space uses one count, a *Hit card* uses none (R38–R51). You never step back "
            "onto the space you just left, and you keep to your heading on the tracks: only a Government space "
            "lets you change track or direction, and only once you have gone at least one count your declared "
            "way (R40–R42). You must use every count the board allows (R53–R54).\n\n"
            f"`{CMD} move` with `to` plays a whole path to a destination; `{CMD} path` goes item by item.")),
        Page("rub-outs", "Rub-outs and Hit cards", (
            "Only your movers, only during their move, only on their own space, and only opposing pieces (R47). "
            "A count rub-out removes one piece; a Hit card removes the pieces its title says, at once, without "
            "a count (R51). Rubbed-out pieces leave the game. Rubbing out a Boss eliminates his player (R52).\n\n"
            "Whoever lost a piece on your turn may call a **penalty** when you pass (see penalties).")),
        Page("attacks", "Attacks on a Home Base", (
            "Only a mover that declared an attack on a player may enter that player's Home Base, and reach his "
            "Boss only once no other piece stands in the Home Base Hit-Men space (R43–R44).\n\n"
            "**Success**: the mover rubs out that Boss; the move ends there and the mover goes home (R58). The "
            "attacker takes the loser's Power and Corrupt Official cards and half his money.\n"
            f"**Failure**: the move ends without it — the mover leaves the game and you owe the attacked player "
            f"{m(_c('attack_debt'))} (R59). A failed attack by your Boss eliminates you.\n"
            "If the attacked player is already out, the attack simply lapses (R60).")),
        Page("meetings", "Acquisitions and meetings", (
            "A mover that **lands** on a City, Business Investment or Illegal Activity space gives you one "
            "acquisition chance this turn (R69).\n"
            f"• Your **first City** is yours for the Marker ({m(_c('man_price'))}), no vote — `{CMD} acquire`.\n"
            f"• Anything else needs the Commission: `{CMD} meeting call` with the City, or the category you want "
            "(you need a City first).\n"
            f"A meeting: **bargaining** (anyone may give money or cards — `{CMD} meeting give`), then the caller "
            f"calls the **vote** (`{CMD} meeting callvote`), then a **session** where the caller places the "
            f"Marker (`{CMD} meeting place`) and adjourns (`{CMD} meeting adjourn`). Bargains are not binding.")),
        Page("votes", "Votes", (
            f"Your votes: 1 for your Boss, 1 per full {m(_c('vote_money'))} you hold, 2 per Corrupt Official you "
            "own (R77). Cards count for nothing until cashed. Entitlements are fixed when the vote is called.\n\n"
            "Voting starts left of the caller and the caller votes last; cast any part of your votes for or "
            f"against, or abstain (`{CMD} vote`). A motion needs more *for* than *against*: a tie fails (R80).\n"
            "House option **sealed ballots**: everyone votes privately, in any order; all are shown together "
            "when the last is in.")),
        Page("penalties", "Penalties", (
            "When a player passes after a turn in which your pieces were rubbed out, you may call a penalty, "
            f"once (`{CMD} penalty call:true`) — or decline. Each called penalty is a meeting that votes on it, in "
            "the order of the rub-outs (R84–R86).\n\n"
            "If it carries, the offender draws the top Penalty card and obeys it at once: lose the Hit-Men that "
            f"did it, remove Hit-Men of his choice (`{CMD} remove`), pay the caller, or lose his officials' "
            "votes for a while (R87–R93).")),
        Page("debts", "Money and debts", (
            "Money is public and always a multiple of $10,000. When you must pay more than you have (a failed "
            "attack, a fine, a penalty), you pay what you can and owe the rest (R94–R98).\n\n"
            "While you owe, every dollar you receive pays your debts first, oldest first, so you hold $0 and "
            "can buy nothing (R97–R101). Gifts and purchases never create debts.")),
        Page("elimination", "Elimination", (
            "Your Boss leaves the board (rubbed out, a Mistake, a penalty, or his own failed attack): you are "
            "out. Your pieces and Markers leave the board and your circles become free (R102–R103).\n"
            "Rubbed out by a player: he gets your Power and Corrupt Official cards and half your money (the "
            "odd $10,000 to the Treasury). Otherwise your money goes to the Treasury and your cards to the "
            "bottom of their decks. The Treasury pays your debts (R104–R108).\n"
            "The last member left wins at once (R111).")),
        Page("house content", "House content", _content_text()),
        Page("options", "Options", (
            f"`{CMD} new` sets: **pace** (`live`: minutes per decision, `async`: hours), every deadline on its own "
            "(turn, Home Base, bargaining and its minimum, vote, session, penalty window and choice), "
            "**ballots** open or sealed (house rule), **round_cap** (house rule: end after that round and rank "
            "by votes, money, income), **auto_income** (house rule) and **reminder_percent**.\n\n"
            "When a deadline passes the game applies that decision's default: e.g. an unmoved mover forfeits, "
            f"an open voter abstains, silence declines a penalty (R122). The host has `{CMD} admin` to resolve, "
            "move a deadline, pause, end, replace a player and export.")),
    ]}


TOPICS = ("overview", "turn", "movement", "rub-outs", "attacks", "meetings", "votes", "penalties", "debts",
          "elimination", "house content", "options")


def page(topic: str | None) -> Page:
    pages = _pages()
    if not topic:
        return pages["overview"]
    want = topic.strip().casefold()
    for key, p in pages.items():
        if want in (key, p.title.casefold()):
            return p
    for key, p in pages.items():
        if matches(want, key, p.title):
            return p
    listed = ", ".join(TOPICS)
    return Page("unknown", "Topics", f"No page called {topic.strip()[:50]!r}. The topics: {listed}.")


def topic_choices(current: str) -> list[tuple[str, str]]:
    """The topics as commands.md lists them (name and value alike), filtered by the topic or its title."""
    pages = _pages()
    return [(key, key) for key, p in pages.items() if matches(current, key, p.title)][:25]
