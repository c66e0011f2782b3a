"""Short rules pages for `/crimopolis rules [topic]`, one Discord embed each, in our own words.

The text follows spec/crimopolis/rulings.md (R1-R120; rule numbers cited sparingly so a curious player can look
a point up); the card pages list the pack the bot plays (the house pack `house-1` unless CRIMECITY_CONTENT names
another) from the content files themselves. No Discord import: the cog turns a page into an embed with
`discord.Embed.from_dict(page.embed_dict())`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from . import names as nm
from .pack import PACK

EMBED_COLOUR = 0x8E44AD
DESCRIPTION_LIMIT = 4096
CHOICE_LIMIT = 100


@dataclass(frozen=True, slots=True)
class RulesPage:
    topic: str
    title: str
    summary: str
    description: str

    def embed_dict(self) -> dict[str, Any]:
        return {"title": self.title, "description": self.description[:DESCRIPTION_LIMIT], "color": EMBED_COLOUR}


_OVERVIEW = """\
2 to 5 gangs build a city tile by tile and fight over it. Each turn you spend **7 hours** (plus what the player \
before you passed on) on actions: recruit, move, occupy or take over blocks, do **jobs** for prestige, abort or \
redraw jobs, invest in fortunes and play them.

The first player to reach the **target** (21 prestige in the standard game) rings the bell: their turn is their \
last, everyone else plays one more turn, then the game ends and the **final scoring** adds blocks, bodies and \
fortunes kept (topic `end`).

Only one player acts at a time: the player whose turn it is, except during setup and when a card is aimed at \
someone, who may **react** (topic `cards`). The hours are game hours; the real deadlines are set by the host."""

_CITY = """\
The city grows on an unbounded grid of cells `x,y` (x grows east, y grows **south**). Every tile is a **block** \
in the middle with **street sections** around it. A section sits on a cell's edge: `h:x,y` is the north edge of \
cell x,y, `v:x,y` its west edge. Where two tiles meet there is one section, not two.

- A **4-street tile** has streets on all four sides; Headquarters and Safe Houses are such tiles.
- A **3-street tile** has one **block side**: two 3-street tiles whose block sides meet form one **large block** \
(two cells, six streets, the names of both tiles).
- Tiles fit only street to street and block side to block side.
- A **frontier** section has a tile on one side only: walking onto it explores the empty cell (topic `moving`).
- A block is named by its first cell (top row first, then west): `0,1`. Any of its cells names it in a command.

One gang per location. At most **3 gangsters** on a section (all gangs together) and in a block, except a \
takeover in progress and a job that needs 4 or more (over-occupation)."""

_SETUP = """\
Two tiles are revealed; every player gets **2 jobs** (by DM). In seat order each player:
1. places their **Headquarters** next to the city (seat 1's goes on `0,0`) and puts one gangster in it;
2. makes two **setup placements**: a revealed tile on an empty cell next to their own Headquarters (tiles must \
fit), revealing a new one each time. With nothing that fits, the placement is skipped.

Then seat 1 starts turn 1 with 7 hours. Answer setup decisions with `/crimopolis decide` or the buttons of my DM; \
without an answer before the deadline, the first legal placement is made."""

_TURN = """\
A turn has **7 hours** plus the carry: the hours the previous player had left when they ended. Costs:
- **recruit** 2 · **move** 1 (0 onto a section where you already stand, or into your Headquarters, Safe House or \
a block you occupy) · **occupy** 3 · **take over** 3 · **job**: its hours · **abort** 3 · **invest** 2
- free: exploring, ambushes, playing a fortune, **redraw**, answering a decision, **end**.

An action you cannot pay for is refused ("not enough hours"). Hours never go below 0.
**End** your turn with `/crimopolis end`; the hours left pass on. If your deadline passes, open decisions get \
their defaults and the turn ends; with `timeout_time: forfeit` (the default) the next player gets no carry.

At the start of your turn your **destinies** (cards lying in front of you) are executed first."""

_MOVING = """\
**Recruit** (`/crimopolis recruit`): a gangster from your supply into your Headquarters (or your Safe House once \
placed), if it holds fewer than 3.

**Move** (`/crimopolis move from to count`): 1 to 3 gangsters from one location together: from a street to an \
adjacent street (they touch at a corner or continue straight), from a street into your own Headquarters, Safe \
House or a block you occupy, or from a block to one of its streets. Never into someone else's block or an empty \
block: that is occupying, taking over or a job.

**Ambush**: moving onto a section held by another gang removes as many of theirs as of yours (one for one); your \
body count rises by the number of theirs removed.

**Explore**: if at least one of your gangsters stands on a frontier section after the move, you place a revealed \
tile (or your Safe House) on the empty cell beyond, free; a new tile is revealed. If nothing fits, nothing is \
placed. With one possible answer the bot places it for you."""

_BLOCKS = """\
**Occupy** (`/crimopolis occupy block from`, 3 hours): 1 to 3 of your gangsters enter an **empty city block** \
from its streets (from one or several sections: `h:0,1=2 v:1,1=1`).

**Take over** (`/crimopolis takeover block from`, 3 hours): enter a city block held by another gang with 1 to 3 \
more than they have there. All defenders and as many of yours are removed; your body count rises by the \
defenders removed, and you gain **1 prestige**.

Nobody occupies or takes over a Headquarters or Safe House. To add gangsters to a block you hold, move them in. \
Occupied blocks score at the end (topic `end`), but a block you stand in cannot host your jobs this turn."""

_JOBS = """\
**Job** (`/crimopolis job card block from [fortunes]`): at a city block showing the job's location, with at \
least the job's gangsters from adjacent streets (more is fine, up to 3, or up to the requirement when it is 4+). \
You must not have had a gangster in that block at the start of the turn or at any time during it.
1. The job (and any job fortunes played with it) is shown; its hours are spent.
2. Your gangsters enter: an occupation, or a takeover (+1 prestige, bodies) if another gang held it.
3. A **newsflash** is drawn and resolved (it may change the job's prestige, cost you gangsters, ...).
4. You gain the job's prestige; 5. you draw a new job.

**Abort** (3 hours): discard a job, draw two, keep one (the other goes back on top).
**Redraw** (free): with two jobs of the same location, show both and draw two new ones.
**Invest** (2 hours): draw a fortune."""

_CARDS = """\
**Fortunes** have a timing: **turn** (play with `/crimopolis fortune` on your turn), **job** (play inside a job), \
**reaction** (answer a card aimed at you) or **keep** (only worth points at the end). Fortunes left in your hand \
score their endgame value.

**Newsflashes** come with jobs. Some cards are **destinies**: they lie face up in front of a player and act at \
the start of that player's next turn.

**Reactions**: when a defendable card is aimed at a player (Bombing, Drive-By, Sabotage, Stool Pigeon, Sloppy \
Work, Police Raid, Heat), that player may react with a reaction fortune (Alibi cancels the card). Everyone aimed \
at is asked, holding a reaction or not, so the question reveals nothing. Set your standing answer with \
`/crimopolis prefs reactions`: **ask** (a DM and the reaction deadline), **never** (No reaction at once) or \
**auto** (your lowest-numbered reaction fortune at once, else No reaction)."""

_END = """\
The first time a player reaches the **target** prestige (21, 13 or 42 by variant) the bell rings: that turn is \
their last and everyone else plays one more turn. Prestige never falls.

**Final scoring**: prestige earned, plus
- +1 per small city block and +3 per large block you occupy (Headquarters and Safe Houses do not count);
- +1 per 2 bodies, and +2 for every player with the highest body count (at least 1);
- the endgame values of the fortunes in your hand;
- with **Influence on the Streets**: +2 for the most gangsters on streets; with **Big Business**: +2 / +4 / +7 \
for 2 / 3 / 4+ blocks of one location.

The highest total wins; ties go to the higher body count; still tied, they win together. A host may end the game \
early (`/crimopolis admin end`): the same scoring applies to the city as it is."""

_OPTIONS = """\
- `variant`: **standard** (target 21, 7 gangsters), **lucky_speed** (13, 6, the 15 clock tiles on top of the \
stack), **deeper_strategy** (42, 9).
- `target_prestige` (5-60), `gangsters` (5-9), `clock_tiles_first`: override the variant.
- `influence_on_the_streets`, `big_business`: end bonuses (topic `end`).
- `timeout_time`: what a timed-out turn passes on: **forfeit** (0 hours) or **pass** (the hours left).
- `turn_hours`: the real deadline of each turn and setup placement; `reaction_minutes`: of a reaction window; \
`reminder_hours`: a DM this long before a deadline.
- `first_player`: who starts (default drawn at random). Seats follow the join order, rotated so the first player \
sits first; colours go yellow, green, red, blue, black.
- `team_mode`: up to two members share a seat (R118): the second joins with `/crimopolis join with:@first`; \
either may act for the seat, both get its DMs; each sets their own `prefs`, and the seat answers reaction \
windows by the stricter of the two (ask, then never, then auto)."""

_NOTATION = """\
`/crimopolis act` and `/crimopolis decide` take one action in words (any case). Cells `x,y`; sections `h:x,y` / \
`v:x,y` (or `x,y N|E|S|W`: that side of the cell); a block by any of its cells; cards and tiles by id; players by \
name or mention.
- `place hq 2,0` · `place T27 5,0 E` (setup; the side of a 3-street tile's block)
- `recruit hq` · `recruit safe_house` · `move 0,0 h:0,1 2`
- `occupy 0,1 from h:0,1=1` · `takeover 1,0 from h:1,0=3 v:1,0=2`
- `job J03 at 0,1 from h:0,1=2 with F14 F20` · `abort J03` · `keep J10`
- `invest` · `redraw` · `end` · `fortune F28 3,0` · `fortune F41 ben`
- `explore T28 E` · `explore sh_yellow` · `explore nothing` · `target ben` · `react F35` · `react none` · \
`destiny N36`

Every autocomplete choice and panel option carries this notation; the bot checks every value again."""


def _pack() -> str:
    """The pack this process plays, in words: `house pack `house-1``, or a group's `pack `<id>``."""
    return f"{'house ' if PACK.game is PACK.house else ''}pack `{nm.content().id}`"


def _jobs_page() -> str:
    lines = [f"Job cards: gangsters / hours / prestige ({_pack()})."]
    by_loc: dict[str, list[str]] = {}
    for card, job in sorted(nm.content().jobs.items()):
        by_loc.setdefault(job.location, []).append(f"{card} {job.title} {job.gangsters}/{job.hours}/{job.prestige}")
    for loc, jobs in by_loc.items():
        lines.append(f"**{nm.location_name(loc)}**: " + " · ".join(jobs))
    return "\n".join(lines)


def _designs_page(deck: str) -> str:
    seen: dict[str, Any] = {}
    for design in nm.content().by_design.values():
        if design.deck == deck:
            seen[design.id] = design
    lines = [f"{deck.capitalize()} of the {_pack()} (design, cards, what it does):"]
    for d in seen.values():
        cards = f"{d.cards[0]}–{d.cards[-1]}" if len(d.cards) > 1 else d.cards[0]
        tags = []
        if d.timing:
            tags.append(d.timing)
        if d.destiny:
            tags.append("destiny")
        if d.defendable:
            tags.append("defendable")
        if deck == "fortunes":
            tags.append(f"endgame {d.endgame}")
        lines.append(f"**{d.title}** ({cards}; {', '.join(tags) or 'plain'}): {d.text}")
    return "\n".join(lines)


def _tiles_page() -> str:
    lines = [f"City tiles of the {_pack()} (★ clock tile; 3 = a 3-street tile):"]
    by_loc: dict[str, list[str]] = {}
    for tile_id in nm.content().city_tiles:
        t = nm.content().tiles[tile_id]
        mark = ("★" if t.clock else "") + ("3" if t.streets == 3 else "")
        by_loc.setdefault(t.location or "", []).append(f"{tile_id}{mark}")
    for loc, tiles in by_loc.items():
        lines.append(f"**{nm.location_name(loc)}**: {' '.join(tiles)}")
    return "\n".join(lines)


@functools.cache
def topics() -> dict[str, RulesPage]:
    """Every page by topic; the card and tile pages list the pack this process plays (pack.py)."""
    pack = f"the {_pack()}"
    return {
        p.topic: p
        for p in (
            RulesPage("overview", "Crimopolis in short", "what the game is about", _OVERVIEW),
            RulesPage("city", "The city: tiles, streets, blocks", "cells, sections, large blocks, capacity", _CITY),
            RulesPage("setup", "Setup", "Headquarters and the first tiles", _SETUP),
            RulesPage("turn", "A turn and its hours", "the budget, the costs, ending, timeouts", _TURN),
            RulesPage("moving", "Recruiting, moving, ambushing, exploring", "getting around the city", _MOVING),
            RulesPage("blocks", "Occupying and taking over", "holding city blocks", _BLOCKS),
            RulesPage("jobs", "Jobs, aborting, redrawing, investing", "how prestige is made", _JOBS),
            RulesPage("cards", "Fortunes, newsflashes, destinies, reactions", "the cards and reaction windows", _CARDS),
            RulesPage("end", "The end and the final scoring", "the bell, the last round, the scores", _END),
            RulesPage("options", "Variants and options", "what the host can set", _OPTIONS),
            RulesPage("notation", "Writing an action", "the notation of act and decide", _NOTATION),
            RulesPage("job-cards", "The job cards", f"every job of {pack}", _jobs_page()),
            RulesPage("fortune-cards", "The fortune cards", f"every fortune of {pack}", _designs_page("fortunes")),
            RulesPage(
                "newsflash-cards", "The newsflash cards", f"every newsflash of {pack}", _designs_page("newsflashes")
            ),
            RulesPage("tiles", "The city tiles", f"every tile of {pack}", _tiles_page()),
        )
    }


@functools.cache
def index() -> RulesPage:
    lines = ["Pick a topic with `/crimopolis rules topic:<name>`:", ""]
    lines += [f"- `{p.topic}`: **{p.title}**, {p.summary}" for p in topics().values()]
    return RulesPage("index", "Crimopolis rules", "the list of topics", "\n".join(lines))


PACK.on_change(topics.cache_clear)
PACK.on_change(index.cache_clear)


def _norm(text: str) -> str:
    return " ".join(text.lower().replace("_", " ").replace("-", " ").split())


def page(topic: str | None) -> RulesPage:
    """The page of `topic` (its name, its title or a unique prefix); the index otherwise (saying why)."""
    top = index()
    if topic is None or not _norm(topic) or _norm(topic) == top.topic:
        return top
    wanted = _norm(topic)
    for p in topics().values():
        if wanted in (_norm(p.topic), _norm(p.title)):
            return p
    starts = [p for p in topics().values() if _norm(p.topic).startswith(wanted) or _norm(p.title).startswith(wanted)]
    if len(starts) == 1:
        return starts[0]
    shown = topic.strip().replace("`", "'")[:50]
    problem = "matches several topics" if starts else "is not a topic"
    return RulesPage(top.topic, top.title, top.summary, f"`{shown}` {problem}.\n\n{top.description}")


def topic_choices(current: str) -> list[tuple[str, str]]:
    """Autocomplete for `topic`: (name, value), those starting with what was typed first, at most 25."""
    wanted = _norm(current)
    first, then = [], []
    for p in topics().values():
        name, title = _norm(p.topic), _norm(p.title)
        if not wanted or name.startswith(wanted) or title.startswith(wanted):
            first.append(p)
        elif wanted in name or wanted in title or wanted in _norm(p.summary):
            then.append(p)
    return [(f"{p.topic}: {p.title}"[:CHOICE_LIMIT], p.topic) for p in first + then][:25]
