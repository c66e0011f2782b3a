"""Short rules pages for `/crimecity rules [topic]` (commands.md), one Discord embed each.

The text follows the project's rulings (`crimecity-rulings.md`, R1-R96 and Q1-Q42); rule numbers
are cited sparingly so a curious player can look a point up. No Discord import here: the cog
turns a `RulesPage` into an embed with `discord.Embed.from_dict(page.embed_dict())`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["EMBED_COLOUR", "INDEX", "TOPICS", "RulesPage", "page", "topic_choices"]

# Discord limits (embed title, description, whole embed; autocomplete choices and their strings).
TITLE_LIMIT = 256
DESCRIPTION_LIMIT = 4096
EMBED_TOTAL_LIMIT = 6000
CHOICES_LIMIT = 25
CHOICE_STRING_LIMIT = 100

EMBED_COLOUR = 0xFFC83C  # the amber of the board picture's friendship highlight


@dataclass(frozen=True, slots=True)
class RulesPage:
    """One page: `topic` is the value typed in the command, `summary` shows in the index."""

    topic: str
    title: str
    summary: str
    description: str

    def embed_dict(self) -> dict[str, Any]:
        """The page as a `discord.Embed.from_dict` payload."""
        return {"title": self.title, "description": self.description, "color": EMBED_COLOUR}


_SETUP = """\
Crime City is for **5 players** and lasts at most **6 rounds**. All **8 characters** are on the \
board all game. Each player secretly drafts one character and one hidden role. The **3 characters \
nobody drafts** stay in play without a hidden role: anyone can move them, converse with them or target \
them, and their abilities can only be used through friendship.

**What you submit**: `/crimecity draft bid characters roles`
- a ranking of the 8 characters and one of the 5 hidden roles (a partial ranking is completed in the \
rule book's order);
- a garnet **bid**, from 0 up to your balance. The one bid sets your priority for both lists.

**Priority**
- The highest bid picks first.
- Equal bids, including 0, are ordered by placement in the previous Main Match, better placement \
first. The host enters it with `/crimecity admin placements`; without it, join order is used.

**Allocation** (R9)
In priority order, each player gets their best-ranked **role** that is still free, then their \
best-ranked free **character that can hold that role**. Roles come first when the two clash.
Restrictions: the Policeman, Banker and Armed Guard cannot be the Bank Robber; the Secretary cannot \
be the Fraud; the Detective cannot be the Mob Boss; the Governor and the Governor's Daughter cannot be \
the Hitman. The Store Clerk can hold any role.

**Bids are paid**: every player loses their bid when the draft resolves (R12). Miss the draft \
deadline and you bid 0 with the rule book's order.

**After the draft** you learn only your own character and role. Characters start at fixed places: \
Town Hall (Policeman, Secretary), Mansion (Governor, Governor's Daughter), Main Street (Store Clerk, \
Detective), Bank (Banker, Armed Guard). The starting board never counts towards a goal: the first \
turn that counts is the end of round 1 (R14)."""

_ACTIONS = """\
Each round, submit with `/crimecity act` (see the `notation` page). You can replace it until the \
deadline.

**The actions**
- **Move horizontally** or **vertically** any living character, anywhere, your own included. \
Horizontal: Town Hall <-> Mansion, Main Street <-> Bank. Vertical: Town Hall <-> Main Street, \
Mansion <-> Bank.
- **Converse** with a character at your character's location: +1 friendship for the two of you.
- **Character action**: your own character's ability.
- **Friendship action**: the ability of a character in your friendship network.

**Two actions, at most one move** (R39)
Pick exactly two actions, at most one of them a movement action. Only when you have no legal \
non-movement action at all do you submit a single move. Moves made by abilities (Banker, Armed Guard, \
Governor, Daughter) are not movement actions, so they never count against this limit.

**Moves go by parity**: two horizontal moves on the same character cancel out; an odd number of \
horizontal and an odd number of vertical moves make a diagonal move.

**Cooldowns** (R45-R48)
You cannot use the same type of action on the same character two rounds in a row; the round after, \
it is free again.
- Both moves on a character share one cooldown.
- Conversing counts against your partner.
- Your character action counts against your own character, whoever its target.
- Friendship actions count per friend, so a different friend each round is fine.
An action counts even when it had no effect (cancelled, blocked or detained). Within one \
submission you cannot repeat one either (e.g. converse twice with the same character).

**Legality** is checked against the board and friendship points published at the start of the \
round.

**Garnet purchases** (R61-R63): `/crimecity friendship`
Pay 3 garnets for +1 friendship between any two living characters, wherever they are. They are not \
actions: buy as many as you can afford, no cooldown, nobody learns who bought. The Mob Boss's guess \
is an extra too (`roles` page).

**No submission** by the deadline: you do nothing that round and have no cooldowns next round."""

_CHARACTERS = """\
Each character has a start location, a role it cannot hold, and an ability. Its player uses the \
ability as a **character action**; players networked with it use it as a **friendship action**, \
acting with their own character, so their own location counts.

**The Policeman** (POL): starts at the Town Hall, cannot be the Bank Robber.
Detain a character at your location (yourself included): it cannot change location this round by \
any means.

**The Secretary** (SEC): starts at the Town Hall, cannot be the Fraud.
Target a player to learn which character they control, or a character to learn which player \
controls it (or that nobody does).

**The Banker** (BAN): starts at the Bank, cannot be the Bank Robber.
Move yourself diagonally, if you are at the Town Hall or the Bank.

**The Armed Guard** (ARM): starts at the Bank, cannot be the Bank Robber.
Move another character at your location diagonally.

**The Store Clerk** (CLK): starts at Main Street, no restriction.
Converse with a character at any location: +1 friendship between you.

**The Detective** (DET): starts at Main Street, cannot be the Mob Boss.
Investigate one character anywhere and learn its hidden role, or that it has none.

**The Governor** (GOV): starts at the Mansion, cannot be the Hitman.
Send one character at your location (yourself included) to any other location, before all other \
movement. He can die (Hitman); then he leaves the board and nobody can use his ability.

**The Governor's Daughter** (DAU): starts at the Mansion, cannot be the Hitman.
Summon the Governor to your location, after all other movement. If the Governor is already dead, \
summon the Store Clerk instead.

Information results (Secretary, Detective) arrive privately after the round. If several players \
send with the Governor in one round, the sends cancel unless they are all identical; the same goes \
for summons to different places (R70, R72)."""

_ROLES = """\
Your hidden role is your secret goal; the first to complete theirs comes out on top. Goals are \
checked at the **end of each round**, on the final board ("spend a turn" means ending the round \
there), starting with round 1. "You" means your own character. You are told privately when your goal \
is complete; nobody else is.

**The Bank Robber**: end two rounds (not necessarily in a row) at the Bank while neither the Armed \
Guard nor the Policeman is there.

**The Hitman**: end a round alone with the living Governor: only the two of you at that location, \
undrafted characters included. The Governor then dies and is removed from the board.

**The Pickpocket**: at each round end you steal from every other character at your location. Once \
you have stolen from 4 different characters, end a round at Main Street (it can be the same round).

**The Fraud**: end a round at the Town Hall without the Secretary there; then, in a later round, \
end a round at the Town Hall with the Secretary there.

**The Mob Boss**: once per round, guess the hidden role of all 8 characters with `/crimecity guess` \
(an extra, not one of your two actions). A perfect guess completes the goal; a wrong one gives no \
hint. A malformed guess is refused and does not use up your attempt.

**Good to know**
- A completed goal stays complete; you keep playing normally.
- Goals completed in the same round are ties.
- If the Governor dies, his player has no character left: a Bank Robber, Pickpocket or Fraud goal \
can no longer progress, but a Mob Boss can still guess."""

_FRIENDSHIP = """\
Every pair of characters has a friendship counter. It starts at 0, never goes down, has no cap, and \
is public.

**Gaining points** (+1 each, R51)
- a conversation (your character and the partner);
- the Store Clerk's ability (your character and the target);
- a garnet purchase (3 garnets, any two living characters).
Points for the same pair in one round add up.

**Friends and networks**
- Two characters with **2 or more points** are friends.
- A **network** is any chain of friends. Any character can be a link, undrafted ones included.
- You may use the ability of **any other character in your own character's network** as a \
friendship action. You act as your own character: your location counts, and the Banker's ability \
moves you.
- It works both ways: if your character befriends another, that character's player can use your \
ability too.
- Your own ability is never a friendship action.

**Same-round rule** (R54): friendship actions use the friendships as they stood at the start of \
the round. A pair that reaches 2 points this round unlocks friendship actions next round.

**Cooldown**: friendship actions count per friend, so you can use one every round with a different \
friend.

**A dead Governor** is removed from networks: his points stay on the board but link nobody, and \
nobody can use his ability."""

_RESOLUTION = """\
Everyone's actions resolve together. Every action was checked against the board at the **start** of \
the round; then, in this order (R65-R78):

1. **Friendship and garnets**: conversations, Store Clerk conversations and purchases add their \
points; purchases are paid.
2. **Information**: Detective and Secretary results are worked out (you get them privately at the \
end).
3. **Detain**: every Policeman target is detained for the whole round, **before any movement**. A \
detained character does not change location this round, whatever else targets it.
4. **Governor's send**, before the other movement. If every send this round is the same (same \
character, same destination) it happens once; if they differ, all are cancelled.
5. **Moves and diagonals**: movement actions plus Banker and Armed Guard diagonals, counted by \
parity in each direction, starting from where a send put the character.
6. **Daughter's summon**, after all other movement, to the summoner's location at that moment. It \
brings the Governor, or the Store Clerk if the Governor was already dead. Summons to different \
places cancel.
7. **Goals** are checked, all at once, on this final board.
8. **Death**: if the Hitman succeeded, the Governor dies now, after the goal checks.
9. **Cooldowns**: every submitted action is recorded, even one that had no effect.
10. **End check**: the game ends once 4 or more players have completed, or after the last round.
11. **Publish**: the new board and friendship points go to the channel; private results go by DM.

Nobody is told why a move failed or who did what."""

_RESULTS = """\
At the end, the bot posts the order in which goals were completed, the ToL and EC, the garnet \
awards, and every player's character and role.

**When it ends**: after the round in which the 4th player completes (every completion of that \
round counts), or after the last round. Completions in the same round are ties.

**ToL** (R86): the first group to complete gets ToLs if it has 1 to 3 players. If 4 or more \
complete first at the same time, all ToLs are void.

**EC** depends on how many players did not complete:
- **1**: that player is EC.
- **2 or 3**: the first completer chooses the EC among them (unanimously, if several tied for \
first), with `/crimecity ec`.
- **4 or 5**: the one with the lowest garnet balance (after awards) is EC. If several are tied for \
lowest, all 5 players choose among them unanimously.
- If all 5 completed, the last group to complete (always 2 or more players) counts as not having \
completed, for ToL and EC only (R84).

**Garnet awards** (R91-R96), paid when the game ends:
- 1st 15, 2nd 10, 3rd 7, 4th 4, later 0.
- A tie for a position costs each tied player 2, and the next completer skips the shared places: \
two tied for 1st get 13 each, and the next gets 7.
- Players counted as not completed (above) still get the award for their real position.
- Final balance = start - bid - 3 per purchase + award."""

_NOTATION = """\
**`/crimecity act first second`**: type an action or pick one from the autocomplete, which offers \
only legal actions. Write a character with spaces or underscores, in any case, with or without \
"the": `store_clerk`, `Store Clerk`, `the store clerk`. Write a player by display name or mention.

**Actions**
- Move: `move horizontal CHARACTER`, `move vertical CHARACTER`
- Converse: `converse CHARACTER`
- Your own ability:
  - `ability` for the Banker and the Governor's Daughter
  - `ability CHARACTER` for the Policeman, Armed Guard, Store Clerk, Detective, and the Secretary \
on a character
  - `ability player PLAYER` for the Secretary on a player
  - `ability CHARACTER LOCATION` for the Governor
- A friend's ability: `friend FRIEND` then the same parameters, e.g. `friend governor policeman bank`

Locations: `town_hall`, `mansion`, `main_street`, `bank` (same spelling freedom).

**Examples**
- `move vertical secretary`
- `converse store_clerk`
- `ability store_clerk` (as the Detective: investigate the Store Clerk)
- `friend banker` (use a networked Banker's diagonal move)

**Mob Boss guess**: `/crimecity guess roles:...`
`character=role` pairs for all 8 characters, separated by commas. Roles: `bank_robber`, `hitman`, \
`pickpocket`, `fraud`, `mob_boss`, and `none` for a character without one. Use each role exactly \
once and `none` exactly three times; include your own character (and a dead Governor).
Example: `policeman=none, secretary=hitman, banker=mob_boss, armed_guard=none, \
store_clerk=bank_robber, detective=pickpocket, governor=fraud, governors_daughter=none`

**Garnet purchase**: `/crimecity friendship a:banker b:detective points:2` (3 garnets a point)."""

TOPICS: dict[str, RulesPage] = {
    p.topic: p
    for p in (
        RulesPage("setup", "Setup and the draft", "players, bids, rankings, tie-breaks, paid bids", _SETUP),
        RulesPage("actions", "Your actions each round", "two actions, one move at most, cooldowns, garnets", _ACTIONS),
        RulesPage("characters", "The 8 characters", "start locations, restrictions and abilities", _CHARACTERS),
        RulesPage("roles", "The 5 hidden roles", "each role's goal and when it counts", _ROLES),
        RulesPage("friendship", "Friendship", "points, friends, networks, the same-round rule", _FRIENDSHIP),
        RulesPage("resolution", "How a round resolves", "the order: detain, send, moves, summon, goals", _RESOLUTION),
        RulesPage("results", "Game end and results", "ToL, EC and garnet awards", _RESULTS),
        RulesPage("notation", "Writing actions and guesses", "what to type in /crimecity act and guess", _NOTATION),
    )
}


def _index_text() -> str:
    lines = ["Pick a topic with `/crimecity rules topic:<name>`:", ""]
    lines += [f"- `{p.topic}`: **{p.title}**, {p.summary}" for p in TOPICS.values()]
    lines += [
        "",
        "In short: 5 players secretly draft a character and a hidden role, then for up to 6 rounds each "
        "submits two actions that move characters, build friendships and use abilities. The first to "
        "complete their hidden goal comes out on top.",
    ]
    return "\n".join(lines)


INDEX = RulesPage("index", "Crime City rules", "the list of topics", _index_text())


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("_", " ").replace("-", " ").split())


def page(topic: str | None) -> RulesPage:
    """The page for `topic` (its name, any case, or a unique prefix); None or "" gives the index.

    An unknown topic gives the index with a first line saying so: the command then always has a
    useful answer, even when someone types instead of picking from the autocomplete.
    """
    if topic is None or not _norm(topic) or _norm(topic) == INDEX.topic:
        return INDEX
    wanted = _norm(topic)
    for p in TOPICS.values():
        if wanted in (p.topic, _norm(p.title)):
            return p
    starts = [p for p in TOPICS.values() if p.topic.startswith(wanted) or _norm(p.title).startswith(wanted)]
    if len(starts) == 1:
        return starts[0]
    shown = topic.strip().replace("`", "'")[:50]
    problem = "matches several topics" if starts else "is not a topic"
    return RulesPage(INDEX.topic, INDEX.title, INDEX.summary, f"`{shown}` {problem}.\n\n{INDEX.description}")


def topic_choices(current: str) -> list[tuple[str, str]]:
    """Autocomplete for the `topic` option: (display name, value) pairs, at most 25.

    Topics whose name or title starts with what was typed come first, then those containing it
    anywhere (in the name or title, or, from 3 letters on, the summary), each group in index order.
    """
    wanted = _norm(current)
    first: list[RulesPage] = []
    then: list[RulesPage] = []
    for p in TOPICS.values():
        name, title = p.topic, _norm(p.title)
        if not wanted or name.startswith(wanted) or title.startswith(wanted):
            first.append(p)
        elif wanted in name or wanted in title or (len(wanted) >= 3 and wanted in _norm(p.summary)):
            then.append(p)
    return [(f"{p.topic}: {p.title}"[:CHOICE_STRING_LIMIT], p.topic) for p in first + then][:CHOICES_LIMIT]
