"""The replay file `organizedcrime-replay/1` (replay.md): reading it (every format error a FormatError naming the
JSON path), building the first state (with or without `start`), running the actions, and the output
`organizedcrime-result/1`; `legal` on the state at the end of a file."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..contract import FormatError
from .actions import PLAYER_ID, awaited, optional, perform, read, refuse, timeout
from .content import DECKS, Content
from .engine import Engine, GameOver
from .legal import legal_doc
from .state import TREASURY, State, canon, markers, new_state, new_turn_state
from .views import hands, public_state

FORMAT = "organizedcrime-replay/1"
RESULT_FORMAT = "organizedcrime-result/1"
HITMAN_KEY = re.compile(r"[1-9][0-9]{0,8}")  # ASCII digits ("²" is a digit to str.isdigit), no leading zero
MONEY_DIGITS = 4000  # a sum of the game stays writable as JSON (Python writes integers of up to 4300 digits)


class FileChance:
    """The chance lists of a replay file, consumed in order; running out is a format error naming the list."""

    def __init__(self, dice: list[list[int]], shuffles: dict[str, list[list[str]]]) -> None:
        self.dice_list = dice
        self.shuffles = shuffles
        self.i = 0
        self.k = {d: 0 for d in DECKS}

    def dice(self, count: int, sides: int = 6) -> tuple[int, ...]:
        if self.i >= len(self.dice_list):
            raise FormatError(f"dice: a roll is needed but the list is exhausted ({len(self.dice_list)} used)")
        roll = self.dice_list[self.i]
        if len(roll) != count or not all(1 <= d <= sides for d in roll):
            raise FormatError(f"dice[{self.i}]: expected {count} dice of 1-{sides}, not {roll!r}")
        self.i += 1
        return tuple(roll)

    def shuffle(self, label: str, items: Sequence[str]) -> list[str]:
        k = self.k[label]
        entries = self.shuffles.get(label, [])
        if k >= len(entries):
            raise FormatError(f"shuffles.{label}[{k}]: a shuffle is needed but the list is exhausted")
        entry = entries[k]
        if sorted(entry) != sorted(items) or len(set(entry)) != len(entry):
            raise FormatError(f"shuffles.{label}[{k}]: not a permutation of the {len(items)} cards to shuffle")
        self.k[label] = k + 1
        return list(entry)

    def initial(self, label: str, all_cards: Sequence[str], held: set[str]) -> list[str]:
        """E7: the first entry lists all the deck's cards, or those not held; held cards are taken out."""
        k = self.k[label]
        entries = self.shuffles.get(label, [])
        if k >= len(entries):
            raise FormatError(f"shuffles.{label}[{k}]: the deck's first shuffle is missing")
        entry = entries[k]
        free = [x for x in all_cards if x not in held]
        if len(set(entry)) != len(entry) or sorted(entry) not in (sorted(all_cards), sorted(free)):
            raise FormatError(f"shuffles.{label}[{k}]: not a permutation of the deck's cards")
        self.k[label] = k + 1
        return [x for x in entry if x not in held]


# ---- reading the file -------------------------------------------------------------------------------------


def _int(value: Any, at: str, low: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FormatError(f"{at}: must be an integer, not {value!r}")
    if low is not None and value < low:
        raise FormatError(f"{at}: must be at least {low}, not {value}")
    return value


def _get(doc: Mapping[str, Any], key: str, default: Any) -> Any:
    """An optional field, or its default when absent; `null` is not absent (docs/organizedcrime/rulings.md 14)."""
    return doc[key] if key in doc else default


def _obj(value: Any, at: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise FormatError(f"{at}: must be an object, not {type(value).__name__}")
    return value


def _lst(value: Any, at: str) -> list[Any]:
    if not isinstance(value, list):
        raise FormatError(f"{at}: must be a list, not {type(value).__name__}")
    return value


def _money(value: Any, at: str, c: Content) -> int:
    m = _int(value, at)
    if m >= 10**MONEY_DIGITS:
        raise FormatError(f"{at}: money of more than {MONEY_DIGITS} digits")
    if m < 0 or m % c.n("money_unit"):
        raise FormatError(f"{at}: money must be a non-negative multiple of {c.n('money_unit')}, not {m}")
    return m


class Header:
    """The parts of a replay file read before the game runs."""

    def __init__(self, doc: Any, c: Content) -> None:
        doc = _obj(doc, "file")
        if doc.get("format") != FORMAT:
            raise FormatError(f"format: must be {FORMAT!r}, not {doc.get('format')!r}")
        if "content" in doc and doc["content"] != c.board_id:
            raise FormatError(f"content: the loaded board is {c.board_id!r}, not {doc['content']!r}")
        players = _lst(doc.get("players"), "players")
        for i, p in enumerate(players):
            if not isinstance(p, str) or not PLAYER_ID.fullmatch(p):
                raise FormatError(f"players[{i}]: not a valid player id: {p!r}")
        if len(set(players)) != len(players):
            raise FormatError("players: the ids must be distinct")
        if not c.n("players_min") <= len(players) <= min(c.n("players_max"), len(c.bases)):
            raise FormatError(f"players: {c.n('players_min')} to {min(c.n('players_max'), len(c.bases))} players "
                              f"(one per Home Base), not {len(players)}")
        if TREASURY in players:
            raise FormatError("players: 'treasury' is not a player id")
        self.players: list[str] = list(players)
        self.options = read_options(doc.get("options", {}), "options")
        setup = _obj(_get(doc, "setup", {}), "setup")
        self.bases: dict[str, int] | None = None
        self.first: str | None = None
        if "bases" in setup:
            self.bases = read_bases(setup["bases"], self.players, c)
        if "first" in setup:
            first = setup["first"]
            if first not in self.players:
                raise FormatError(f"setup.first: unknown player {first!r}")
            self.first = first
        self.start = _obj(doc["start"], "start") if "start" in doc else None
        if self.start is not None:
            if self.bases is None or self.first is None:
                raise FormatError("start: needs setup.bases and setup.first")
        dice = _lst(_get(doc, "dice", []), "dice")
        for i, roll in enumerate(dice):
            if (not isinstance(roll, list) or len(roll) != c.n("dice")
                    or not all(isinstance(d, int) and not isinstance(d, bool) and 1 <= d <= c.n("die_faces")
                               for d in roll)):
                raise FormatError(f"dice[{i}]: must be [d1, d2], each 1-{c.n('die_faces')}, not {roll!r}")
        shuffles = _obj(_get(doc, "shuffles", {}), "shuffles")
        read_shuffles: dict[str, list[list[str]]] = {}
        for deck in DECKS:
            entries = _lst(_get(shuffles, deck, []), f"shuffles.{deck}")
            for k, entry in enumerate(entries):
                if not isinstance(entry, list) or not all(isinstance(x, str) for x in entry):
                    raise FormatError(f"shuffles.{deck}[{k}]: must be a list of card ids")
            read_shuffles[deck] = entries
        self.chance = FileChance(dice, read_shuffles)
        self.actions = _lst(_get(doc, "actions", []), "actions")


def read_options(value: Any, at: str) -> dict[str, Any]:
    opts = _obj(value, at)
    ballots = opts.get("ballots", "open")
    if ballots not in ("open", "sealed"):
        raise FormatError(f"{at}.ballots: must be open or sealed, not {ballots!r}")
    cap = opts.get("round_cap")
    if cap is not None:
        cap = _int(cap, f"{at}.round_cap", 1)
    auto = opts.get("auto_income", False)
    if not isinstance(auto, bool):
        raise FormatError(f"{at}.auto_income: must be true or false, not {auto!r}")
    return {"ballots": ballots, "round_cap": cap, "auto_income": auto}


def read_bases(value: Any, players: list[str], c: Content) -> dict[str, int]:
    bases = _obj(value, "setup.bases")
    for p in bases:
        if p not in players:
            raise FormatError(f"setup.bases.{p}: unknown player")
    out = {}
    for p in players:
        if p not in bases:
            raise FormatError(f"setup.bases.{p}: missing (every player needs a base)")
        b = _int(bases[p], f"setup.bases.{p}")
        if b not in c.bases:
            raise FormatError(f"setup.bases.{p}: {b} is not a Home Base of the board")
        out[p] = b
    if len(set(out.values())) != len(out):
        raise FormatError("setup.bases: the bases must be distinct")
    return out


# ---- the first state -----------------------------------------------------------------------------------------


def opening(c: Content, h: Header, snapshot: Any) -> Engine:
    """The engine after the prelude (its events are `eng.events`)."""
    st = new_state(h.players, h.options, c.n("start_money"))
    eng = Engine(c, st, h.chance, snapshot)
    try:
        if h.start is None:
            eng.shuffle_all()
            eng.begin_setup(h.bases, h.first)
        else:
            apply_start(eng, h)
    except GameOver:
        pass
    return eng


def apply_start(eng: Engine, h: Header) -> None:
    c, st = eng.c, eng.st
    start = _obj(h.start, "start")
    assert h.bases is not None and h.first is not None
    st["bases"] = dict(h.bases)
    st["first"] = h.first
    players_doc = _obj(_get(start, "players", {}), "start.players")
    for p in players_doc:
        if p not in h.players:
            raise FormatError(f"start.players.{p}: unknown player")
    held: dict[str, str] = {}  # card -> where
    for p in h.players:
        _start_player(c, st, p, players_doc.get(p, {}), h.bases, held)
    _check_holdings(c, st)
    living = [p for p in h.players if st["pl"][p]["alive"]]
    if len(living) < 2:
        raise FormatError("start.players: fewer than two members")
    debts = _lst(_get(start, "debts", []), "start.debts")
    for i, d in enumerate(debts):
        at = f"start.debts[{i}]"
        d = _obj(d, at)
        debtor, creditor = d.get("debtor"), d.get("creditor")
        if debtor not in living:
            raise FormatError(f"{at}.debtor: not a member: {debtor!r}")
        if creditor != TREASURY and (creditor not in living or creditor == debtor):
            raise FormatError(f"{at}.creditor: not a member other than the debtor, nor the treasury: {creditor!r}")
        amount = _int(d.get("amount"), f"{at}.amount")
        if amount <= 0 or amount % c.n("money_unit"):
            raise FormatError(f"{at}.amount: a positive multiple of {c.n('money_unit')}, not {amount}")
        st["debts"].append({"debtor": debtor, "creditor": creditor, "amount": amount})
    for d in st["debts"]:
        if st["pl"][d["debtor"]]["money"] > 0:
            raise FormatError(f"start.players.{d['debtor']}.money: a player with debts holds $0 (R100)")
    decks_doc = _obj(_get(start, "decks", {}), "start.decks")
    given: list[str] = []
    for deck in DECKS:
        cards = c.decks[deck]
        mine = {x for x in cards if x in held}
        if deck in decks_doc:
            dd = _obj(decks_doc[deck], f"start.decks.{deck}")
            draw = _cards(dd.get("draw", []), f"start.decks.{deck}.draw", c, deck)
            discard = _cards(dd.get("discard", []), f"start.decks.{deck}.discard", c, deck)
            pile = draw + discard
            if len(set(pile)) != len(pile) or set(pile) != set(cards) - mine:
                raise FormatError(f"start.decks.{deck}: must hold exactly the cards not held by players")
            st["decks"][deck] = {"draw": draw, "discard": discard}
            given.append(deck)
    for deck in DECKS:
        if deck in given:
            continue
        cards = c.decks[deck]
        draw = h.chance.initial(deck, cards, {x for x in cards if x in held})
        st["decks"][deck] = {"draw": draw, "discard": []}
        eng.emit("shuffled", deck=deck, cards=len(draw))
    turn = _int(_get(start, "turn", 1), "start.turn", 1)
    rnd = _int(_get(start, "round", 1), "start.round", 1)
    active = start.get("active", h.first)
    if active not in h.players:
        raise FormatError(f"start.active: unknown player {active!r}")
    if not st["pl"][active]["alive"]:
        raise FormatError(f"start.active: {active} is eliminated")
    st["elim"] = [p for p in h.players if not st["pl"][p]["alive"]]
    eng.begin_turn(active, rnd, turn)


def _cards(value: Any, at: str, c: Content, deck: str) -> list[str]:
    out = []
    for i, x in enumerate(_lst(value, at)):
        if not isinstance(x, str) or x not in c.cards:
            raise FormatError(f"{at}[{i}]: unknown card {x!r}")
        if c.cards[x].deck != deck:
            raise FormatError(f"{at}[{i}]: {x} is not a {deck} card")
        out.append(x)
    return out


def _start_player(c: Content, st: State, p: str, doc: Any, bases: dict[str, int], held: dict[str, str]) -> None:
    at = f"start.players.{p}"
    doc = _obj(doc, at)
    pl = st["pl"][p]
    base = bases[p]
    pl["base"] = base
    is_alive = doc.get("alive", True)
    if not isinstance(is_alive, bool):
        raise FormatError(f"{at}.alive: must be true or false")
    if not is_alive:
        extra = sorted(k for k in doc if k != "alive")
        if extra:
            raise FormatError(f"{at}.{extra[0]}: a player with alive false has no other field")
        pl.update(alive=False, money=0, pieces={}, eliminated={"turn": None, "cause": "before_start", "by": None})
        return
    pl["money"] = _money(doc.get("money", c.n("start_money")), f"{at}.money", c)
    own_spaces = {c.bases[base].home, c.bases[base].boss}
    boss = doc.get("boss", c.bases[base].boss)
    _space(c, boss, f"{at}.boss", own_spaces)
    pieces = {f"{p}:0": boss}
    hitmen = _obj(_get(doc, "hitmen", {}), f"{at}.hitmen")
    top = 0
    for key, space in hitmen.items():
        if HITMAN_KEY.fullmatch(key) is None:
            raise FormatError(f"{at}.hitmen.{key}: a Hit-Man number is an integer from 1 up, in digits 0-9 without"
                              " a leading zero, and at most 9 of them")
        _space(c, space, f"{at}.hitmen.{key}", own_spaces)
        if c.kinds[space] == "boss":
            raise FormatError(f"{at}.hitmen.{key}: a Hit-Man on a boss space")
        pieces[f"{p}:{int(key)}"] = space
        top = max(top, int(key))
    bought = _int(doc.get("hitmen_bought", top), f"{at}.hitmen_bought", 0)
    if top > bought:
        raise FormatError(f"{at}.hitmen: Hit-Man number {top} is above hitmen_bought {bought}")
    pl["pieces"] = {k: pieces[k] for k in canon(st, pieces)}
    pl["hitmen_bought"] = bought
    cities = _lst(_get(doc, "cities", []), f"{at}.cities")
    for i, x in enumerate(cities):
        if not isinstance(x, str) or x not in c.cities:
            raise FormatError(f"{at}.cities[{i}]: unknown city {x!r}")
    if len(set(cities)) != len(cities):
        raise FormatError(f"{at}.cities: a City owned twice")
    pl["cities"] = sorted(cities)
    for group, known in (("business", c.business), ("illegal", c.illegal), ("officials", c.offices)):
        counts = _obj(_get(doc, group, {}), f"{at}.{group}")
        out = {}
        for k, n in counts.items():
            if k not in known:
                raise FormatError(f"{at}.{group}.{k}: unknown id")
            n = _int(n, f"{at}.{group}.{k}", 0)
            if n:
                out[k] = n
        pl[group] = out
    for hand, deck in (("power", "power"), ("official_cards", "official")):
        cards = _lst(_get(doc, hand, []), f"{at}.{hand}")
        for i, x in enumerate(cards):
            if not isinstance(x, str) or x not in c.cards:
                raise FormatError(f"{at}.{hand}[{i}]: unknown card {x!r}")
            if c.cards[x].deck != deck:
                raise FormatError(f"{at}.{hand}[{i}]: {x} is a card of another hand")
            if x in held:
                raise FormatError(f"{at}.{hand}[{i}]: {x} is held twice")
            held[x] = p
        pl["power" if deck == "power" else "official"] = sorted(cards)
    limits = _lst(_get(doc, "limits", []), f"{at}.limits")
    for i, lim in enumerate(limits):
        lat = f"{at}.limits[{i}]"
        lim = _obj(lim, lat)
        card = lim.get("card")
        if not isinstance(card, str) or card not in c.cards:
            raise FormatError(f"{lat}.card: unknown card {card!r}")
        if c.cards[card].kind != "lose_official_votes":
            raise FormatError(f"{lat}.card: {card} is not a lose_official_votes card")
        if card in held:
            raise FormatError(f"{lat}.card: {card} is held twice")
        held[card] = p
        pl["limits"].append({"card": card, "turns_left": _int(lim.get("turns_left"), f"{lat}.turns_left", 1)})
    pl["turns_taken"] = _int(_get(doc, "turns_taken", 0),
                             f"{at}.turns_taken", 0)
    if pl["hitmen_bought"] + markers(pl) > c.n("men"):
        raise FormatError(f"{at}: more than {c.n('men')} Men used")


def _space(c: Content, space: Any, at: str, own: set[str]) -> None:
    if not isinstance(space, str) or space not in c.kinds:
        raise FormatError(f"{at}: unknown space {space!r}")
    if c.kinds[space] in ("home", "boss") and space not in own:
        raise FormatError(f"{at}: a piece on a Home Base space that is not its owner's")


def _check_holdings(c: Content, st: State) -> None:
    seen: dict[str, str] = {}
    for p in st["players"]:
        for city in st["pl"][p]["cities"]:
            if city in seen:
                raise FormatError(f"start.players.{p}.cities: {city} is owned twice")
            seen[city] = p
    for group, kind in (("business", "business"), ("illegal", "illegal"), ("officials", "office")):
        totals: dict[str, int] = {}
        for p in st["players"]:
            for k, n in st["pl"][p][group].items():
                totals[k] = totals.get(k, 0) + n
        for k, n in totals.items():
            if n > c.circles(kind, k):
                raise FormatError(f"start.players: {n} {k} circles owned, only {c.circles(kind, k)} exist")


# ---- running -------------------------------------------------------------------------------------------------


def wire(e: dict[str, Any]) -> dict[str, Any]:
    return dict(e)


class Run:
    def __init__(self, c: Content, doc: Any) -> None:
        self.c = c
        self.h = Header(doc, c)
        self.turns: list[dict[str, Any]] = []
        self.eng = opening(c, self.h, self._snap)
        self.prelude = self.eng.events
        self.log: list[dict[str, Any]] = []
        for k, raw in enumerate(self.h.actions):
            self.log.append(self.one(k, raw))

    def _snap(self, st: State) -> None:
        self.turns.append({"turn": st["turn"], "round": st["round"], "player": st["active"],
                           "state": public_state(self.c, st), "hands": hands(st)})

    def one(self, k: int, raw: Any) -> dict[str, Any]:
        at = f"actions[{k}]"
        st = self.eng.st
        if st["phase"] == "over":
            raise FormatError(f"{at}: the game has ended; no action may follow")
        action, malformed = read(raw, st["players"], self.c, at)
        if action["act"] == "timeout":
            if "by" in raw:
                raise FormatError(f"{at}.by: a timeout has no by")
            by = None
        else:
            if "by" not in raw:
                raise FormatError(f"{at}.by: missing")
            by = raw["by"]
            if not isinstance(by, str) or by not in st["players"]:
                raise FormatError(f"{at}.by: unknown player {by!r}")
        refusal = None
        if by is not None:
            refusal = ("malformed", malformed) if malformed else refuse(self.eng, by, action)
        entry: dict[str, Any] = {"i": k, "action": raw, "refused": None, "events": []}
        if refusal is not None:
            entry["refused"] = {"code": refusal[0], "message": refusal[1]}
            return entry
        self.eng.events = []
        try:
            if by is None:
                timeout(self.eng)
            else:
                perform(self.eng, by, action)
        except GameOver:
            pass
        entry["events"] = [wire(e) for e in self.eng.events]
        return entry

    def output(self) -> dict[str, Any]:
        st = self.eng.st
        over = st["phase"] == "over"
        return {
            "format": RESULT_FORMAT,
            "content": self.c.board_id,
            "setup": {"base_order": st["base_order"], "bases": dict(st["bases"]), "first": st["first"]},
            "prelude": [wire(e) for e in self.prelude],
            "log": self.log,
            "turns": self.turns,
            "state": public_state(self.c, st),
            "hands": hands(st),
            "pending": None if over else {"decision": st["phase"], "players": awaited(st), "optional": optional(st)},
            "result": st["result"],
        }


def run_replay(c: Content, doc: Any) -> dict[str, Any]:
    return Run(c, doc).output()


def run_legal(c: Content, doc: Any, player: str) -> dict[str, Any]:
    run = Run(c, doc)
    st = run.eng.st
    if player not in st["players"]:
        raise FormatError(f"--player: {player!r} is not a player of this file")
    if st["phase"] == "over":
        raise FormatError("actions: the game has ended; nothing is legal")
    return legal_doc(run.eng, player)


__all__ = ["FORMAT", "RESULT_FORMAT", "FileChance", "Header", "Run", "new_turn_state", "run_legal", "run_replay"]
