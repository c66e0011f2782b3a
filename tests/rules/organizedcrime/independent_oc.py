"""An independent cross-check of Organized Crime's meetings, votes, cards, money and elimination.

Written from the spec (rulings.md R13-R128, B.5-B.7, errata E1-E42) and the content JSON files alone: it imports
nothing of `rules.organizedcrime` but the public Game object (setup/step/check/view/pending/results/random_move).
`Checker.after_step` recomputes, from the views before a step and the step's trigger events (who cashed what, which
card was drawn, who was eliminated), every consequence the spec prescribes (money, debts and their events in order,
deck piles, hands, vote entitlements and orders, vote results, penalty effects, the next turn, the result) and
compares it field by field with the engine's events and views. A divergence raises `Divergence` with the rule cited.
"""

from __future__ import annotations

import json
from pathlib import Path
from random import Random
from typing import Any

from rules.contract import Action, Event, SeededChance
from rules.organizedcrime.game import GAME

CONTENT = Path(__file__).resolve().parents[3] / "rules" / "organizedcrime" / "content"
TREASURY = "treasury"
DECKS = ("power", "official", "mistake", "penalty")


def _load(name: str) -> Any:
    return json.loads((CONTENT / f"{name}.json").read_text())


RULES: dict[str, Any] = _load("rules")
CATALOGUE: dict[str, Any] = _load("catalogue")
CARDS: dict[str, dict[str, Any]] = {
    card["id"]: {**card, "deck": deck} for deck, d in _load("decks")["decks"].items() for card in d["cards"]}
CITY_VALUE = {c["id"]: c["value"] for c in CATALOGUE["cities"]}
CAT_VALUE = {c["id"]: c["value"] for group in ("business", "illegal") for c in CATALOGUE[group]}
CIRCLES = {group: {c["id"]: c["circles"] for c in CATALOGUE[group]} for group in ("business", "illegal", "offices")}


class Divergence(AssertionError):
    pass


def expect(ok: bool, rule: str, *detail: Any) -> None:
    if not ok:
        raise Divergence(f"{rule}: " + " | ".join(repr(d) for d in detail))


def number(piece: str) -> int:
    return int(piece.rsplit(":", 1)[1])


def owner(piece: str) -> str:
    return piece.rsplit(":", 1)[0]


# ---- the quantities, from a public view ----------------------------------------------------------------------


def members(view: dict[str, Any]) -> list[str]:
    return [p for p, pl in view["players"].items() if pl["alive"]]


def entitlement(pl: dict[str, Any]) -> int:
    """R77 / R93: 1 for the Boss, 1 per full $100,000, 2 per official not limited by vote-limit cards."""
    if not pl["alive"]:
        return 0
    owned = sum(pl["officials"].values())
    limited = 0
    for lim in pl["limits"]:
        count = CARDS[lim["card"]]["count"]
        limited += owned if count is None else count
    usable = owned - min(owned, limited)
    return int(RULES["votes_boss"] + pl["money"] // RULES["vote_money"] + RULES["votes_per_official"] * usable)


def income_value(pl: dict[str, Any]) -> int:
    """R14 / R32: the value of the holdings (Cities, Business Investments, Illegal Activities); officials give none."""
    if not pl["alive"]:
        return 0
    total: int = sum(CITY_VALUE[c] for c in pl["cities"])
    for group in ("business", "illegal"):
        total += sum(CAT_VALUE[k] * n for k, n in pl[group].items())
    return total


def markers(pl: dict[str, Any]) -> int:
    return int(len(pl["cities"]) + sum(pl["business"].values()) + sum(pl["illegal"].values()) + sum(
        pl["officials"].values()))


def left_of(view: dict[str, Any], p: str) -> str:
    """R3: the next member in seat order, cyclically."""
    seats = list(view["players"])
    i = seats.index(p)
    for k in range(1, len(seats) + 1):
        q = seats[(i + k) % len(seats)]
        if view["players"][q]["alive"]:
            return str(q)
    raise AssertionError("no member")


def voting_order(view: dict[str, Any], caller: str) -> list[str]:
    """R78: from the member to the left of the caller, to the left; the caller last."""
    seats = list(view["players"])
    i = seats.index(caller)
    return [q for q in seats[i + 1:] + seats[:i + 1] if view["players"][q]["alive"]]


def standing(view: dict[str, Any]) -> list[dict[str, Any]]:
    """R127 / replay.md `result`: members by votes, money, income (descending), then seat order."""
    seats = list(view["players"])
    rows = [{"player": p, "votes": entitlement(view["players"][p]), "money": view["players"][p]["money"],
             "income": income_value(view["players"][p])} for p in members(view)]
    return sorted(rows, key=lambda r: (-r["votes"], -r["money"], -r["income"], seats.index(r["player"])))


# ---- the money ledger (R97-R101, B.5 with E1, B.6 with E2) -----------------------------------------------------


class Ledger:
    def __init__(self, view: dict[str, Any]) -> None:
        self.money = {p: pl["money"] for p, pl in view["players"].items()}
        self.alive = {p: pl["alive"] for p, pl in view["players"].items()}
        self.debts = [dict(d) for d in view["debts"]]
        self.events: list[tuple[str, dict[str, Any]]] = []

    def receive(self, p: str, a: int) -> None:
        if p == TREASURY:
            return
        self.money[p] += a
        self.apply_debts(p)

    def apply_debts(self, p: str) -> None:
        while self.money[p] > 0:
            mine = [d for d in self.debts if d["debtor"] == p]
            if not mine:
                return
            d = mine[0]
            pay = min(self.money[p], d["amount"])
            self.money[p] -= pay
            d["amount"] -= pay
            self.events.append(("debt_paid", {"debtor": p, "creditor": d["creditor"], "amount": pay,
                                              "left": d["amount"]}))
            if d["amount"] == 0:
                self.debts.remove(d)
            self.receive(d["creditor"], pay)

    def charge(self, p: str, a: int, to: str, reason: str) -> None:
        """E1: pay what he holds, record the rest as a debt, only then pay the receiver."""
        pay = min(self.money[p], a)
        if pay > 0:
            self.money[p] -= pay
            self.events.append(("paid", {"from": p, "to": to, "amount": pay, "reason": reason}))
        if a - pay > 0:
            self.debts.append({"debtor": p, "creditor": to, "amount": a - pay})
            self.events.append(("debt", {"debtor": p, "creditor": to, "amount": a - pay, "reason": reason}))
        if pay > 0:
            self.receive(to, pay)

    def spend(self, p: str, a: int, rule: str) -> None:
        expect(self.money[p] >= a, rule + " (a purchase needs the full price in hand, R30)", p, a, self.money[p])
        self.money[p] -= a

    def eliminate(self, x: str, cause: str, by: str | None, ev: dict[str, Any]) -> None:
        m = self.money[x]
        to_by = (m // (2 * RULES["money_unit"])) * RULES["money_unit"] if cause == "rubout" else 0
        expect(ev["money"] == m and ev["to_by"] == to_by and ev["to_treasury"] == m - to_by,
               "R104/R105 money of the eliminated", ev, m, to_by)
        self.money[x] = 0
        self.alive[x] = False
        # E2: debts owed to x go to the Treasury first, then the attacker's share, then x's own debts are settled.
        for d in self.debts:
            if d["creditor"] == x:
                d["creditor"] = TREASURY
                self.events.append(("debt_transferred", {"debtor": d["debtor"], "from": x, "amount": d["amount"]}))
        if cause == "rubout" and to_by and by is not None:
            self.receive(by, to_by)
        for d in [d for d in self.debts if d["debtor"] == x]:
            self.debts.remove(d)
            self.events.append(("debt_settled", {"debtor": x, "creditor": d["creditor"], "amount": d["amount"]}))
            self.receive(d["creditor"], d["amount"])


MONEY_EVENTS = ("paid", "debt", "debt_paid", "debt_transferred", "debt_settled")


# ---- the checker -------------------------------------------------------------------------------------------------


class Checker:
    """Follows one game; `after_step` is called with the views before and after each step."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {}
        self.income_at_start: dict[int, int] = {}
        self.ballots: list[dict[str, Any]] = []  # open ballots of the current vote, in casting order
        self.eliminated: list[str] = []
        self.last: dict[str, Any] | None = None  # the event before the one being checked

    def seen(self, what: str) -> None:
        self.counts[what] = self.counts.get(what, 0) + 1

    # The invariants of every public view.
    def check_view(self, view: dict[str, Any], hands: dict[str, dict[str, list[str]]]) -> None:
        owned_cities: list[str] = []
        for p, pl in view["players"].items():
            expect(pl["votes"] == entitlement(pl), "R77/R93 entitlement", p, pl)
            expect(pl["income"] == income_value(pl), "R14 income value / E16", p, pl)
            if pl["alive"]:
                expect(pl["men_left"] == RULES["men"] - pl["hitmen_bought"] - markers(pl), "R20 unused Men", p, pl)
                expect(pl["cards"] == {d: len(hands[p][d]) for d in ("power", "official")}, "R29 card counts", p)
            else:
                expect(pl["money"] == 0 and pl["votes"] == 0 and pl["men_left"] == 0 and not pl["pieces"]
                       and not pl["cities"] and not pl["business"] and not pl["illegal"] and not pl["officials"]
                       and pl["cards"] == {"power": 0, "official": 0} and not pl["limits"],
                       "replay.md an eliminated player's public state", p, pl)
            if any(d["debtor"] == p for d in view["debts"]):
                expect(pl["money"] == 0, "R100 a debtor holds $0", p, pl["money"])
            owned_cities += pl["cities"]
        expect(len(owned_cities) == len(set(owned_cities)), "R68 one Marker per City", owned_cities)
        expect(view["free"]["cities"] == sorted(set(CITY_VALUE) - set(owned_cities)), "free cities", view["free"])
        for group, key in (("business", "business"), ("illegal", "illegal"), ("offices", "officials")):
            for cat, n in CIRCLES[group].items():
                used = sum(pl[key].get(cat, 0) for pl in view["players"].values())
                expect(view["free"][key][cat] == n - used, "R103 free circles", cat, view["free"][key], used)
        held = [c for h in hands.values() for d in ("power", "official") for c in h[d]]
        limits = [x["card"] for pl in view["players"].values() for x in pl["limits"]]
        for deck in DECKS:
            cards = [c for c, k in CARDS.items() if k["deck"] == deck]
            inside = view["decks"][deck]["facedown"] + len(view["decks"][deck]["discard"])
            outside = [c for c in held + limits if CARDS[c]["deck"] == deck]
            expect(inside + len(outside) == len(cards) and len(set(outside + view["decks"][deck]["discard"])) ==
                   len(outside) + len(view["decks"][deck]["discard"]), "R112 every card in one place", deck)
        mt = view["meeting"]
        if mt is not None and mt["phase"] == "vote":
            expect(mt["order"] == voting_order(view, mt["caller"]), "R78 voting order", mt)

    def after_step(self, before: dict[str, Any], hands: dict[str, dict[str, list[str]]], by: str | None,
                   move: dict[str, Any], events: list[dict[str, Any]], after: dict[str, Any],
                   hands_after: dict[str, dict[str, list[str]]], pending_after: Any, result: Any) -> None:
        kinds = [e["kind"] for e in events]
        ledger = Ledger(before)
        decks = {d: {"facedown": before["decks"][d]["facedown"], "discard": list(before["decks"][d]["discard"])}
                 for d in DECKS}
        hand = {p: {d: list(h[d]) for d in ("power", "official")} for p, h in hands.items()}
        limits = {p: [dict(x) for x in pl["limits"]] for p, pl in before["players"].items()}
        money_events: list[tuple[str, dict[str, Any]]] = []
        mt = before["meeting"]
        ts = before["turn_state"]
        active = before["active"]
        removed_expected: list[str] = []
        cur_income = None if ts is None else ts["income_value"]
        cur_turn = before["turn"]
        game_over = False
        if before["phase"] == "penalty_choice" and by is not None:
            removed_expected = sorted(move["pieces"], key=lambda q: (number(q)))  # Q45 canonical order
            self.seen("penalty_choice_made")
        elif before["phase"] == "penalty_choice":
            hitmen = sorted((q for q in before["players"][active]["pieces"] if number(q) > 0), key=number)
            removed_expected = hitmen[-mt["choose"]:]  # R89 default: the highest numbers
            self.seen("penalty_choice_default")
        for i, e in enumerate(events):
            k = e["kind"]
            self.last = events[i - 1] if i else None
            if game_over:
                raise Divergence(f"Q41 nothing after game_over: {k}")
            if k in MONEY_EVENTS:
                money_events.append((k, {f: e[f] for f in e if f not in ("kind", "audience")}))
                continue
            if k == "income":
                p = e["player"]
                expect(p == active, "R31 only the active player collects", e)
                expect(e["amount"] == cur_income == self.income_at_start.get(after["turn"], -1) and e["amount"] > 0,
                       "R14/R31 income is the value recorded when the turn began", e, cur_income)
                ledger.receive(p, e["amount"])
                self.seen("income")
            elif k == "cashed":
                card = CARDS[e["card"]]
                expect(card["kind"] == "money" and e["amount"] == card["amount"], "R24 cashing", e)
                hand[e["player"]]["power"].remove(e["card"])
                decks["power"]["discard"].append(e["card"])
                ledger.receive(e["player"], e["amount"])
                self.seen("cashed")
            elif k == "bought_hitmen":
                expect(e["cost"] == RULES["man_price"] * len(e["pieces"]), "R19 price", e)
                ledger.spend(e["player"], e["cost"], "R19")
            elif k == "bought_power":
                expect(e["cost"] == RULES["power_price"], "R23 price", e)
                ledger.spend(e["player"], e["cost"], "R23")
                self.seen("bought_power")
            elif k == "bought_official":
                card = CARDS[e["card"]]
                expect(card["kind"] == "official" and e["office"] == card["office"] and
                       e["cost"] == card["price"] + RULES["man_price"], "R27 official purchase", e)
                ledger.spend(e["player"], e["cost"], "R27")
                hand[e["player"]]["official"].remove(e["card"])
                decks["official"]["discard"].append(e["card"])
                self.seen("bought_official")
            elif k == "acquired":
                expect(e["cost"] == RULES["man_price"], "R70-R74 a Marker costs $10,000", e)
                ledger.spend(e["player"], e["cost"], "R74")
                self.seen(f"acquired_{e['type']}_{'vote' if e['vote'] else 'first'}")
            elif k == "gave":
                if "money" in e:
                    expect(e["money"] <= ledger.money[e["from"]] and e["money"] % RULES["money_unit"] == 0,
                           "R81 a gift of money held", e)
                    ledger.money[e["from"]] -= e["money"]
                    ledger.receive(e["to"], e["money"])
                    self.seen("gave_money")
            elif k == "gave_card":
                card = e["card"]
                d = CARDS[card]["deck"]
                hand[e["from"]][d].remove(card)
                hand[e["to"]][d].append(card)
                seats = list(before["players"])
                expect(e["audience"] == sorted([e["from"], e["to"]], key=seats.index), "R83 a card gift is private",
                       e)
                expect(events[i - 1]["kind"] == "gave" and events[i - 1]["deck"] == d, "R83 public: which deck",
                       events[i - 1])
                self.seen("gave_card")
            elif k == "shuffled":
                d = e["deck"]
                expect(decks[d]["facedown"] == 0 and decks[d]["discard"] and e["cards"] == len(decks[d]["discard"]),
                       "R114/Q31 reshuffle only when a draw finds no face-down card", e, decks[d])
                decks[d] = {"facedown": len(decks[d]["discard"]), "discard": []}
                self.seen(f"reshuffle_{d}")
            elif k == "deck_empty":
                d = e["deck"]
                expect(decks[d]["facedown"] == 0 and not decks[d]["discard"], "R116 empty deck", e, decks[d])
                self.seen("deck_empty")
            elif k == "drew":
                d = e["deck"]
                expect(decks[d]["facedown"] > 0, "R113 draw the top face-down card", e, decks[d])
                decks[d]["facedown"] -= 1
                self.seen(f"drew_{d}")
            elif k == "drew_card":
                card = e["card"]
                d = CARDS[card]["deck"]
                expect(d == e["deck"] and not any(card in h[d] for h in hand.values())
                       and card not in decks[d]["discard"], "R113 the card came from the face-down pile", e)
                expect(e["audience"] == [e["player"]], "R29 a drawn card is private", e)
                hand[e["player"]][d].append(card)
            elif k == "hit_played":
                hand[active]["power"].remove(e["card"])
                decks["power"]["discard"].append(e["card"])
            elif k == "attack_failed":
                ledger.charge(active, RULES["attack_debt"], e["player"], "attack")
            elif k == "mistake":
                self.check_mistake(before, decks, ledger, events, i, e)
            elif k == "penalty_card":
                self.check_penalty_card(before, decks, ledger, limits, events, i, e)
                removed_expected += self.penalty_removals(before, e)
            elif k == "limit_expired":
                p = e["player"]
                decks["penalty"]["discard"].append(e["card"])
                self.seen("limit_expired")
            elif k == "eliminated":
                x = e["player"]
                expect(e["cause"] in ("rubout", "mistake", "penalty", "failed_attack"), "R102 cause", e)
                expect((e["by"] is not None) == (e["cause"] == "rubout"), "E8 by only for a rub-out", e)
                pl = before["players"][x]
                gone = {ev["piece"] for ev in events[:i] if ev["kind"] in ("removed", "rubbed_out")}
                rest = sorted((q for q in pl["pieces"] if q not in gone), key=number)
                expect(e["pieces"] == rest and f"{x}:0" not in rest, "R103 every other piece leaves with him", e, rest)
                cards = sorted(hand[x]["power"]) + sorted(hand[x]["official"])
                expect(e["cards"] == {"power": len(hand[x]["power"]), "official": len(hand[x]["official"]),
                                      "limits": len(limits[x])}, "replay.md eliminated.cards", e)
                expect(e["holdings"] == {g: pl[g] for g in ("cities", "business", "illegal", "officials")},
                       "R103 holdings freed", e, pl)
                if e["cause"] == "rubout":
                    # R104: the attacking player receives every Power and Corrupt Official card, privately.
                    got = [ev for ev in events[i + 1:i + 3] if ev["kind"] == "received_cards"]
                    if cards:
                        expect(bool(got) and got[0]["cards"] == sorted(cards) and got[0]["audience"] == [e["by"]]
                               and got[0]["from"] == x and got[0]["player"] == e["by"],
                               "R104/R107 cards to the attacker", e, got, cards)
                        for c in cards:
                            hand[e["by"]][CARDS[c]["deck"]].append(c)
                    else:
                        expect(not got, "replay.md received_cards only when at least one card", got)
                else:
                    # R105/R106: to the bottoms of their decks, ascending id, Power then Official.
                    decks["power"]["discard"] += sorted(hand[x]["power"])
                    decks["official"]["discard"] += sorted(hand[x]["official"])
                decks["penalty"]["discard"] += sorted(lim["card"] for lim in limits[x])
                hand[x] = {"power": [], "official": []}
                limits[x] = []
                ledger.eliminate(x, e["cause"], e["by"], e)
                rec = after["players"][x]["eliminated"]
                expect(rec == {"turn": cur_turn, "cause": e["cause"], "by": e["by"]},
                       "E42 the elimination record", rec, cur_turn)
                self.eliminated.append(x)
                self.seen(f"eliminated_{e['cause']}")
            elif k == "vote_called":
                self.check_vote_called(before, e)
            elif k == "ballot":
                self.check_ballot(before, after, e)
            elif k == "ballots_revealed":
                self.check_revealed(before, e)
            elif k == "vote_result":
                self.check_vote_result(before, events, i, e, ledger)
            elif k == "meeting_called":
                self.check_meeting_called(before, by, move, e)
            elif k == "turn_ended":
                self.check_turn_ended(before, events, i, e, limits)
            elif k == "turn_began":
                self.check_turn_began(before, after, events, i, e)
                cur_income = e["income"]
                active = e["player"]
                cur_turn = e["turn"]
            elif k == "penalty_window":
                self.check_window(before, after, events, i, e)
            elif k == "game_over":
                game_over = True
                self.check_result(after, result, e)
        expect(money_events == ledger.events, "B.5/E1/E2 money events and their order", money_events, ledger.events)
        for k, _ in money_events:
            self.seen(k)
        if [k for k, _ in money_events][:3] == ["paid", "debt", "debt_paid"]:
            self.seen("E1_payback")
        for p, pl in after["players"].items():
            expect(pl["money"] == ledger.money[p], "B.5 money after the step", p, pl["money"], ledger.money[p], kinds)
        expect(after["debts"] == ledger.debts, "R96-R98 debt list", after["debts"], ledger.debts)
        expect(after["decks"] == decks, "R113-R117 deck piles", after["decks"], decks, kinds)
        for p in hand:
            now = {d: sorted(hands_after[p][d]) for d in ("power", "official")}
            expect(now == {d: sorted(hand[p][d]) for d in ("power", "official")}, "R107 hands", p, now, hand[p])
        if removed_expected:
            removed = [e["piece"] for e in events if e["kind"] == "removed" and e["cause"] == "penalty"]
            expect(removed[:len(removed_expected)] == removed_expected, "R88 penalty removals", removed,
                   removed_expected)
        for ev in events:
            if ev["kind"] in ("removed", "rubbed_out"):
                expect(all(ev["piece"] not in pl["pieces"] for pl in after["players"].values()),
                       "R20/R21 a removed piece is out of the game", ev)
        for p, pl in after["players"].items():
            if pl["alive"]:
                expect(pl["limits"] == limits[p], "R93 vote-limit cards", p, pl["limits"], limits[p])
        self.check_flow(before, by, move, events, after)
        self.check_meeting_view(before, events, after)
        self.check_view(after, hands_after)
        self.check_pending(after, pending_after)

    def check_flow(self, before: dict[str, Any], by: str | None, move: dict[str, Any], events: list[dict[str, Any]],
                   after: dict[str, Any]) -> None:
        kinds = [e["kind"] for e in events]
        phase = before["phase"]
        mt = before["meeting"]
        timeout = by is None and move.get("act") == "timeout"
        if timeout:
            expect(kinds[:1] == ["timed_out"], "replay.md timeout emits timed_out first", kinds)
        # R18 / E40: turns_taken grows by one at the end of a turn of a member.
        for p, pl in after["players"].items():
            ended = [e for e in events if e["kind"] == "turn_ended" and e["player"] == p]
            gone = any(e["kind"] == "eliminated" and e["player"] == p for e in events)
            if pl["alive"] or not gone:
                expect(pl["turns_taken"] == before["players"][p]["turns_taken"] + len(ended), "R18 turns_taken", p)
        if phase == "vote" and timeout and GAME_OPTIONS.get("ballots") == "sealed":
            # E19: each missing member, in seat order: public ballot_sealed {default}, then private ballot abstain.
            missing = [p for p in before["players"] if p in mt["order"] and p not in mt["voted"]]
            want: list[tuple[str, Any, Any]] = []
            for p in missing:
                want += [("ballot_sealed", "public", p), ("ballot", [p], p)]
            got = [(e["kind"], e["audience"], e["player"]) for e in events if e["kind"] in ("ballot_sealed", "ballot")]
            expect(got == want, "E19 sealed-vote timeout events", got, want)
            expect(all(e.get("default") is True for e in events if e["kind"] in ("ballot_sealed", "ballot")),
                   "E19 default true", events)
            expect(kinds[1 + 2 * len(missing):3 + 2 * len(missing)] == ["ballots_revealed", "vote_result"],
                   "E19 then the reveal and the result", kinds)
            self.seen("sealed_timeout")
        if phase == "penalty_window":
            # R85/R86: answers; once all are in, the meetings in the order of each caller's first rub-out.
            answers = {o["player"]: o["answer"] for o in before["window"]["offended"]}
            if timeout:
                declined = [e["player"] for e in events if e["kind"] == "penalty_declined"]
                expect(declined == [p for p, a in answers.items() if a == "undecided"] and all(
                    e["default"] for e in events if e["kind"] == "penalty_declined"), "R85 silence declines", events)
                answers = {p: "declined" if a == "undecided" else a for p, a in answers.items()}
            elif move.get("act") in ("penalty", "no_penalty"):
                answers[by] = "called" if move["act"] == "penalty" else "declined"
            if all(a != "undecided" for a in answers.values()):
                callers = [p for p, a in answers.items() if a == "called"]
                called = [e["caller"] for e in events if e["kind"] == "meeting_called"]
                if callers:
                    expect(called[:1] == callers[:1] and after["queue"] == callers[1:], "R86 meetings in rub-out order",
                           called, after["queue"], callers)
                    self.seen("queue" if len(callers) > 1 else "one_caller")
                else:
                    expect(not called, "R85 no call, no meeting", events)
        if "meeting_closed" in kinds and mt is not None and mt["type"] == "penalty":
            offender = mt["issue"]["offender"]
            out = any(e["kind"] == "eliminated" and e["player"] == offender for e in events) or not before[
                "players"][offender]["alive"]
            cancelled = [e["caller"] for e in events if e["kind"] == "penalty_cancelled"]
            called = [e["caller"] for e in events if e["kind"] == "meeting_called"]
            if out:
                expect(cancelled == before["queue"] and not called, "R91/Q27 later penalty meetings cancelled",
                       cancelled, before["queue"])
                if cancelled:
                    self.seen("penalty_cancelled")
            else:
                expect(not cancelled and called[:1] == before["queue"][:1], "R86 the next penalty meeting", called,
                       before["queue"])
        if by is not None and move.get("act") in ("meeting", "acquire") and kinds[:1] in (["meeting_called"],
                                                                                        ["acquired"]):
            # R69: one acquire or one meeting per opportunity, whatever the vote.
            mine = [o for o in before["turn_state"]["opportunities"] if o["piece"] == move["piece"] and not o["used"]]
            now = [o for o in after["turn_state"]["opportunities"] if o["piece"] == move["piece"] and not o["used"]]
            expect(len(now) == len(mine) - 1, "R69 the opportunity is used", mine, now)
        if phase == "bargain" and timeout:
            expect(kinds[1:2] == ["vote_called"], "R122 a bargaining timeout calls the vote", kinds)
        if phase == "vote" and timeout and GAME_OPTIONS.get("ballots") != "sealed":
            nxt = mt["order"][len(mt["voted"])]
            b = events[1]
            expect(b["kind"] == "ballot" and b["player"] == nxt and b["side"] == "abstain" and b["votes"] == 0
                   and b["default"] is True, "R122 a missed open ballot abstains", b, nxt)
        if phase == "session" and (timeout or move.get("act") == "adjourn"):
            ends = (["placement_lapsed"] if mt["marker_pending"] else []) + ["meeting_closed"]
            closing = [k for k in kinds if k in ("placement_lapsed", "meeting_closed")]
            expect(closing == ends, "R74/Q34 the session ends; an unplaced Marker lapses", closing, ends)
            if mt["marker_pending"]:
                self.seen("placement_lapsed")
        if phase == "session" and move.get("act") == "place":
            issue = mt["issue"]
            expect(kinds[:1] == ["acquired"] and events[0]["target"] == issue["target"], "R74 place", kinds)
            self.seen("placed_in_session")
        over = [e for e in events if e["kind"] == "game_over"]
        if over and over[0]["reason"] == "round_cap":
            # R127: the turn that ended was the last of round `round_cap`, and the next would begin a new round.
            cap = GAME_OPTIONS["round_cap"]
            seats = list(after["players"])
            prev = after["active"]
            nxt = left_of(after, prev)
            first = seats.index(after["first"])
            new_round = (seats.index(nxt) - first) % len(seats) <= (seats.index(prev) - first) % len(seats)
            expect(after["round"] == cap and new_round, "R127 the cap ends the game when round cap + 1 would begin",
                   after["round"], cap, prev, nxt)

    def check_meeting_view(self, before: dict[str, Any], events: list[dict[str, Any]], after: dict[str, Any]) -> None:
        """replay.md `state.meeting` (E14): ballots, result, marker_pending, card, choose."""
        mt = after["meeting"]
        if mt is None:
            return
        kinds = [e["kind"] for e in events]
        sealed = GAME_OPTIONS.get("ballots") == "sealed"
        if mt["phase"] in ("vote", "session", "penalty_choice") and mt["order"] is not None:
            if sealed and mt["phase"] == "vote":
                expect(mt["ballots"] == [], "R121 sealed ballots hidden until the reveal", mt)
            else:
                expect(mt["ballots"] == self.ballots, "E14 meeting.ballots", mt["ballots"], self.ballots)
        if "vote_result" in kinds:
            r = next(e for e in events if e["kind"] == "vote_result")
            if after["meeting"]["id"] == r["meeting"]:
                expect(mt["result"] == {"for": r["for"], "against": r["against"], "carried": r["carried"]},
                       "replay.md meeting.result", mt)
                placed = "acquired" in kinds[kinds.index("vote_result"):]
                expect(mt["marker_pending"] == (mt["type"] == "acquisition" and r["carried"] and not placed),
                       "R74 marker_pending", mt)
        if mt["phase"] == "penalty_choice":
            card = CARDS[mt["card"]]
            expect(card["kind"] == "remove_hitmen" and mt["choose"] == card["count"], "R89 choose k", mt)
            hitmen = [q for q in after["players"][mt["issue"]["offender"]]["pieces"] if number(q) > 0]
            expect(len(hitmen) > card["count"], "R89 a choice only with more than k Hit-Men", mt, hitmen)
        else:
            expect(mt["choose"] is None, "replay.md choose null outside penalty_choice", mt)
        if mt["type"] == "penalty":
            # E41: the turn that just ended stays the current one.
            expect(after["active"] == mt["issue"]["offender"], "E41 active during a penalty meeting", after["active"])

    # ---- cards ----

    def check_mistake(self, before: dict[str, Any], decks: dict[str, Any], ledger: Ledger,
                      events: list[dict[str, Any]], i: int, e: dict[str, Any]) -> None:
        card = CARDS[e["card"]]
        expect(card["deck"] == "mistake" and decks["mistake"]["facedown"] > 0, "R64 a Mistake card drawn", e)
        decks["mistake"]["facedown"] -= 1
        decks["mistake"]["discard"].append(e["card"])  # R64: back to the deck as soon as shown
        owned = before["players"][e["player"]]["officials"]
        avoided = any(owned.get(o, 0) > 0 for o in card["avoided_by"])
        expect(e["avoided"] == avoided, "R64/Q40 avoided by an owned official of a listed office", e, owned)
        nxt = events[i + 1] if i + 1 < len(events) else {"kind": None}
        if avoided:
            expect(nxt["kind"] not in ("removed", "paid", "debt"), "R64 a cancelled Mistake does nothing", nxt)
            self.seen("mistake_avoided")
        elif card["kind"] == "remove_mover":
            expect(nxt["kind"] == "removed" and nxt["piece"] == e["piece"] and nxt["cause"] == "mistake",
                   "R64 remove_mover removes the landed mover", e, nxt)
            self.seen("mistake_removed")
        else:
            ledger.charge(e["player"], card["amount"], TREASURY, "fine")
            self.seen("mistake_fine")

    def check_penalty_card(self, before: dict[str, Any], decks: dict[str, Any], ledger: Ledger,
                           limits: dict[str, list[dict[str, Any]]], events: list[dict[str, Any]], i: int,
                           e: dict[str, Any]) -> None:
        mt = before["meeting"]
        card = CARDS[e["card"]]
        expect(card["deck"] == "penalty", "R87 a Penalty card", e)
        expect(mt is not None and e["caller"] == mt["caller"] and e["player"] == mt["issue"]["offender"],
               "R87 the offending player draws", e, mt)
        expect(decks["penalty"]["facedown"] > 0, "R113 a face-down card", decks["penalty"])
        decks["penalty"]["facedown"] -= 1
        if card["kind"] == "lose_official_votes":
            limits[e["player"]].append({"card": e["card"], "turns_left": card["turns"]})
        else:
            decks["penalty"]["discard"].append(e["card"])  # R90
        if card["kind"] == "pay_caller":
            ledger.charge(e["player"], card["amount"], e["caller"], "penalty")
        self.seen(f"penalty_{card['kind']}")

    def penalty_removals(self, before: dict[str, Any], e: dict[str, Any]) -> list[str]:
        """R88/R89: the pieces a Penalty card removes at once, in canonical order (Q45)."""
        card = CARDS[e["card"]]
        pieces = before["players"][e["player"]]["pieces"]
        canon = sorted(pieces, key=number)
        if card["kind"] == "remove_offender":
            hitters = {r["by"] for r in before["turn_state"]["rubouts"] if r["owner"] == e["caller"]}
            return [p for p in canon if p in hitters]
        if card["kind"] == "remove_hitmen":
            hitmen = [p for p in canon if number(p) > 0]
            return hitmen if len(hitmen) <= card["count"] else []
        return []

    # ---- meetings and votes ----

    def check_meeting_called(self, before: dict[str, Any], by: str | None, move: dict[str, Any],
                             e: dict[str, Any]) -> None:
        if e["type"] == "acquisition":
            expect(by == before["active"] and move.get("act") == "meeting", "R75 the active player calls", e)
            expect(e["issue"]["target"] == move["target"] and e["issue"]["piece"] == move["piece"], "R76 issue", e)
            self.seen("meeting_acquisition")
        else:
            expect(e["issue"] == {"type": "penalty", "offender": before["active"]}, "R86 penalty issue", e, before)
            self.seen("meeting_penalty")

    def check_vote_called(self, before: dict[str, Any], e: dict[str, Any]) -> None:
        mt = before["meeting"]
        expect(mt is not None and mt["phase"] == "bargain", "R76 the vote follows bargaining", mt)
        order = voting_order(before, mt["caller"])
        expect(e["order"] == order, "R78 voting order", e["order"], order)
        ents = {p: entitlement(before["players"][p]) for p in order}
        expect(e["entitlements"] == ents, "R77 entitlements fixed when the vote is called", e["entitlements"], ents)
        self.ballots = []
        self.seen("vote_called")

    def check_ballot(self, before: dict[str, Any], after: dict[str, Any], e: dict[str, Any]) -> None:
        mt = before["meeting"]
        sealed = GAME_OPTIONS.get("ballots") == "sealed"
        expect(mt is not None and mt["phase"] == "vote", "R79 ballots during the vote", mt)
        ent = mt["entitlements"][e["player"]]
        if e["side"] == "abstain":
            expect(e["votes"] == 0, "E14 abstain is 0 votes", e)
        else:
            expect(1 <= e["votes"] <= ent, "R79 1 <= n <= entitlement", e, ent)
        if sealed:
            expect(e["audience"] == [e["player"]], "R121 a sealed ballot is private", e)
            expect(self.last is not None and self.last["kind"] == "ballot_sealed" and self.last["player"] ==
                   e["player"] and self.last["audience"] == "public" and self.last["default"] == e["default"],
                   "E37 the public ballot_sealed precedes the private ballot", self.last, e)
        else:
            nxt = mt["order"][len(mt["voted"])]
            expect(e["player"] == nxt and e["audience"] == "public", "R78/R79 open ballots in turn, public", e, mt)
            self.ballots.append({"player": e["player"], "side": e["side"], "votes": e["votes"]})
        self.seen(f"ballot_{e['side']}")

    def check_revealed(self, before: dict[str, Any], e: dict[str, Any]) -> None:
        mt = before["meeting"]
        expect([b["player"] for b in e["ballots"]] == mt["order"], "R121 revealed in voting order", e, mt)
        self.ballots = [dict(b) for b in e["ballots"]]
        self.seen("ballots_revealed")

    def check_vote_result(self, before: dict[str, Any], events: list[dict[str, Any]], i: int, e: dict[str, Any],
                          ledger: Ledger) -> None:
        mt = before["meeting"]
        expect(len(self.ballots) == len(mt["order"]), "R78 every member votes", self.ballots, mt["order"])
        f = sum(b["votes"] for b in self.ballots if b["side"] == "for")
        a = sum(b["votes"] for b in self.ballots if b["side"] == "against")
        expect((e["for"], e["against"], e["carried"]) == (f, a, f > a), "R80 carried iff for > against", e, f, a)
        self.seen("carried" if f > a else ("tie" if f == a else "rejected"))
        rest = [x["kind"] for x in events[i + 1:]]
        if mt["type"] == "acquisition":
            if not e["carried"]:
                expect("acquired" not in rest, "R80 a rejected motion acquires nothing", rest)
                return
            pl = before["players"][mt["caller"]]
            issue = mt["issue"]
            if issue["type"] == "city":
                free = issue["target"] in before["free"]["cities"]
            else:
                free = before["free"][issue["type"]][issue["target"]] > 0
            placeable = free and pl["men_left"] >= 1 and ledger.money[mt["caller"]] >= RULES["man_price"]
            nxt = events[i + 1] if i + 1 < len(events) else {"kind": None}
            if placeable:
                expect(nxt["kind"] == "acquired" and nxt["target"] == issue["target"] and nxt["vote"] is True,
                       "R74 the Marker is placed at once", nxt, issue)
            else:
                expect("acquired" not in rest, "R74 the Marker waits", rest)
                self.seen("marker_waits")
        else:
            deck = before["decks"]["penalty"]
            if e["carried"]:
                empty = deck["facedown"] == 0 and not deck["discard"]
                expect(("penalty_card" in rest) == (not empty), "R87/R92 a carried penalty draws", rest, deck)
            else:
                expect("penalty_card" not in rest, "R80 a rejected penalty draws nothing", rest)

    # ---- turn flow ----

    def check_turn_ended(self, before: dict[str, Any], events: list[dict[str, Any]], i: int, e: dict[str, Any],
                         limits: dict[str, list[dict[str, Any]]]) -> None:
        p = e["player"]
        expect(p == before["active"], "R17 the active player's turn ends", e)
        alive = not any(x["kind"] == "eliminated" and x["player"] == p for x in events[:i]) and before["players"][p][
            "alive"]
        if not alive:
            expect("penalty_window" not in [x["kind"] for x in events[i:]], "R110/E40 no window", events[i:])
            return  # E40: ages nothing
        # R18 / R93: each vote-limit card loses one turn; at 0 it is discarded (limit_expired).
        expired = []
        for lim in limits[p]:
            lim["turns_left"] -= 1
            if lim["turns_left"] == 0:
                expired.append(lim["card"])
        limits[p] = [x for x in limits[p] if x["turns_left"] > 0]
        got = [x["card"] for x in events[i + 1:i + 1 + len(expired)] if x["kind"] == "limit_expired" and
               x["player"] == p]
        expect(got == expired, "R93/replay.md vote-limit cards expire right after turn_ended", got, expired)
        members_now = {q for q, pl in before["players"].items() if pl["alive"]}
        for x in events[:i]:
            if x["kind"] == "eliminated":
                members_now.discard(x["player"])
        offended = {r["owner"] for r in before["turn_state"]["rubouts"] if r["owner"] in members_now}
        nxt = events[i + 1 + len(expired)]["kind"] if i + 1 + len(expired) < len(events) else None
        expect((nxt == "penalty_window") == bool(offended), "R84 the window opens iff a member was offended", nxt,
               offended)

    def check_window(self, before: dict[str, Any], after: dict[str, Any], events: list[dict[str, Any]], i: int,
                     e: dict[str, Any]) -> None:
        ts = before["turn_state"]
        alive = {p for p, pl in before["players"].items() if pl["alive"]}
        for x in events[:i]:
            if x["kind"] == "eliminated":
                alive.discard(x["player"])
        offended: list[str] = []
        for r in sorted(ts["rubouts"], key=lambda r: r["seq"]):
            if r["owner"] in alive and r["owner"] not in offended:
                offended.append(r["owner"])
        expect(e["offender"] == before["active"] and e["offended"] == offended, "R84 the window's offended members",
               e, offended)
        self.seen("penalty_window")

    def check_turn_began(self, before: dict[str, Any], after: dict[str, Any], events: list[dict[str, Any]], i: int,
                         e: dict[str, Any]) -> None:
        prev = before["active"]
        seats = list(before["players"])
        alive = {p for p, pl in before["players"].items() if pl["alive"]}
        for x in events[:i]:
            if x["kind"] == "eliminated":
                alive.discard(x["player"])
        if prev is not None:
            k = seats.index(prev)
            nxt = next(seats[(k + j) % len(seats)] for j in range(1, len(seats) + 1)
                       if seats[(k + j) % len(seats)] in alive)
            expect(e["player"] == nxt, "R3 play proceeds to the left", e, nxt)
            first = seats.index(before["first"])
            pos = (seats.index(nxt) - first) % len(seats)
            prev_pos = (k - first) % len(seats)
            expect(e["round"] == before["round"] + (1 if pos <= prev_pos else 0) and e["turn"] == before["turn"] + 1,
                   "R126 rounds", e, before["round"])
        pl = after["players"][e["player"]]
        # The holdings cannot change between turn_began and the end of this step unless acquired in it.
        if not any(x["kind"] == "acquired" for x in events[i + 1:]):
            expect(e["income"] == income_value(pl), "R14 income value at the start of the turn", e, pl)
        self.income_at_start[e["turn"]] = e["income"]
        auto = GAME_OPTIONS.get("auto_income")
        nxt_ev = events[i + 1] if i + 1 < len(events) else {"kind": None}
        if auto and e["income"] > 0:
            expect(nxt_ev["kind"] == "income" and nxt_ev["amount"] == e["income"], "R33 auto income", nxt_ev)
        else:
            expect(nxt_ev["kind"] != "income", "R31 income only on request", nxt_ev)
        self.seen("turn_began")

    def check_result(self, after: dict[str, Any], result: Any, e: dict[str, Any]) -> None:
        expect(result is not None, "R125 a result", result)
        expect(e["winners"] == result["winners"] and e["reason"] == result["reason"], "game_over = result", e, result)
        rows = standing(after)
        expect(result["standing"] == rows, "R127 standing", result["standing"], rows)
        top = rows[0]
        winners = [r["player"] for r in rows if (r["votes"], r["money"], r["income"]) ==
                   (top["votes"], top["money"], top["income"])]
        if result["reason"] == "last_survivor":
            expect(len(rows) == 1 and result["winners"] == [rows[0]["player"]], "R111 the last member wins", result)
        else:
            expect(result["winners"] == winners, "R127/E39 winners", result["winners"], winners)
        expect([x["player"] for x in result["eliminated"]] == self.eliminated, "result.eliminated order",
               result["eliminated"], self.eliminated)
        self.seen(f"over_{result['reason']}")

    def check_pending(self, view: dict[str, Any], pending: Any) -> None:
        if pending is None:
            return
        mt = view["meeting"]
        if pending.decision == "vote":
            if GAME_OPTIONS.get("ballots") == "sealed":
                seats = list(view["players"])
                want = [p for p in seats if p in mt["order"] and p not in mt["voted"]]
            else:
                want = [mt["order"][len(mt["voted"])]]
            expect(list(pending.awaited) == want, "R78/R121 who votes now", pending, mt)
        if pending.decision in ("bargain", "session"):
            expect(list(pending.awaited) == [mt["caller"]], "R76 the caller calls the vote / adjourns", pending)
            expect(list(pending.optional) == [p for p in members(view) if p != mt["caller"]],
                   "R122 every other member may act", pending)


GAME_OPTIONS: dict[str, Any] = {}


# ---- refusal probes for the meeting, vote and money acts (replay.md check order) ---------------------------------


def expected_code(view: dict[str, Any], hand: dict[str, list[str]], seat: str, move: dict[str, Any]) -> str | None:
    """What replay.md's check order gives for one of the acts this audit covers; None if accepted."""
    act = move["act"]
    phase = view["phase"]
    pl = view["players"][seat]
    mt = view["meeting"]
    ts = view["turn_state"]
    if act == "remove" and len(set(move["pieces"])) != len(move["pieces"]):
        return "malformed"  # E22: repeated entries; malformed comes before every other check
    if not pl["alive"]:
        return "not_in_game"
    accepted = {"income": ("turn", "bargain", "session"), "cash": ("turn", "bargain", "session"),
                "give": ("bargain", "session"), "call_vote": ("bargain",), "vote": ("vote",), "place": ("session",),
                "adjourn": ("session",), "acquire": ("turn",), "meeting": ("turn",),
                "penalty": ("penalty_window",), "no_penalty": ("penalty_window",), "buy_power": ("turn",),
                "buy_official": ("turn",), "buy_hitmen": ("turn",), "remove": ("penalty_choice",)}[act]
    if phase not in accepted:
        return "wrong_phase"
    if act == "income" and phase != "turn" and mt["type"] == "penalty":
        return "wrong_phase"
    if act in ("income", "acquire", "meeting", "buy_power", "buy_official", "buy_hitmen") or (
            act == "cash" and phase == "turn"):
        if seat != view["active"]:
            return "not_yours"
    if act in ("call_vote", "adjourn") and seat != mt["caller"]:
        return "not_yours"
    if act == "place" and seat != mt["caller"]:
        return "not_yours"  # E18: in a penalty meeting too, another player's `place` is not_yours

    if act == "remove":
        # R89: exactly k of the offending player's own Hit-Men on the board, never the Boss.
        if seat != mt["issue"]["offender"]:
            return "not_yours"
        ok = len(move["pieces"]) == mt["choose"] and all(
            q in pl["pieces"] and number(q) > 0 for q in move["pieces"])
        return None if ok else "bad_piece"
    if act in ("penalty", "no_penalty"):
        mine = [o for o in view["window"]["offended"] if o["player"] == seat]
        if not mine:
            return "not_yours"
        return "already" if mine[0]["answer"] != "undecided" else None
    if act == "vote":
        sealed = GAME_OPTIONS.get("ballots") == "sealed"
        if sealed:
            if seat not in mt["order"]:
                return "not_yours"
            if seat in mt["voted"]:
                return "already"
        elif seat != mt["order"][len(mt["voted"])]:
            return "not_yours"
        if move["side"] != "abstain" and move["votes"] > mt["entitlements"][seat]:
            return "votes"
        return None
    if act == "buy_hitmen":
        if pl["men_left"] < move["count"]:
            return "no_men"
        return "funds" if pl["money"] < RULES["man_price"] * move["count"] else None
    if act == "buy_power":
        if pl["money"] < RULES["power_price"]:
            return "funds"
        deck = view["decks"]["power"]
        return "deck_empty" if deck["facedown"] == 0 and not deck["discard"] else None  # R116
    if act == "buy_official":
        card = move["card"]
        if card not in hand["official"]:
            return "no_card"
        office = CARDS[card]["office"]
        if view["free"]["officials"][office] == 0:
            return "taken"
        if pl["men_left"] < 1:
            return "no_men"
        return "funds" if pl["money"] < CARDS[card]["price"] + RULES["man_price"] else None
    if act == "income":
        if ts["income_collected"]:
            return "already"
        return "no_income" if ts["income_value"] == 0 else None
    if act == "cash":
        card = move["card"]
        return None if card in hand["power"] and CARDS[card]["kind"] == "money" else "no_card"
    if act == "give":
        to = move["to"]
        if to == seat or not view["players"][to]["alive"]:
            return "bad_target"
        if "money" in move:
            return None if move["money"] <= pl["money"] else "funds"
        return None if move["card"] in hand["power"] + hand["official"] else "no_card"
    if act in ("call_vote", "adjourn"):
        return None
    if act == "place":
        if not mt["marker_pending"]:
            return "no_opportunity"
        issue = mt["issue"]
        if not _free(view, issue["type"], issue["target"]):
            return "taken"
        if pl["men_left"] < 1:
            return "no_men"
        return "funds" if pl["money"] < RULES["man_price"] else None
    opps = [o for o in ts["opportunities"] if o["piece"] == move["piece"] and not o["used"]]
    if act == "acquire":
        city = [o for o in opps if o["type"] == "city"]
        if not city:
            return "no_opportunity"
        if not _free(view, "city", city[0]["city"]):
            return "taken"
        if pl["cities"]:
            return "first_city"
        if pl["men_left"] < 1:
            return "no_men"
        return "funds" if pl["money"] < RULES["man_price"] else None
    # meeting (E17)
    if not opps:
        return "no_opportunity"
    target = move["target"]
    o = opps[0]
    if o["type"] == "city":
        if target != o["city"]:
            return "bad_target"
    elif target not in CIRCLES[o["type"]]:
        return "bad_target"
    if not _free(view, o["type"], target):
        return "taken"
    if o["type"] == "city" and not pl["cities"]:
        return "first_city"
    if o["type"] != "city" and not pl["cities"]:
        return "needs_city"
    return "no_men" if pl["men_left"] < 1 else None


def _free(view: dict[str, Any], kind: str, target: str) -> bool:
    if kind == "city":
        return target in view["free"]["cities"]
    return bool(view["free"][kind][target] > 0)


def probes(view: dict[str, Any], hands: dict[str, dict[str, list[str]]],
           rng: Random) -> list[tuple[str, dict[str, Any]]]:
    """A few acts of the covered kinds, legal or not, from random seats."""
    seats = list(view["players"])
    out: list[tuple[str, dict[str, Any]]] = []
    ts = view["turn_state"]
    for seat in seats:
        h = hands[seat]
        other = rng.choice([s for s in seats if s != seat] + [seat])
        cands: list[dict[str, Any]] = [
            {"act": "income"}, {"act": "call_vote"}, {"act": "adjourn"}, {"act": "place"},
            {"act": "penalty"}, {"act": "no_penalty"}, {"act": "vote", "side": "abstain"},
            {"act": "vote", "side": rng.choice(["for", "against"]), "votes": rng.randint(1, 8)},
            {"act": "give", "to": other, "money": rng.choice([10000, 50000, 100000, 300000])},
        ]
        if h["power"] + h["official"]:
            cands.append({"act": "give", "to": other, "card": rng.choice(h["power"] + h["official"])})
        cands.append({"act": "cash", "card": rng.choice(h["power"] or sorted(CARDS)[:24])})
        cands.append({"act": "buy_power"})
        mine = sorted(view["players"][seat]["pieces"], key=number)
        if view["phase"] == "penalty_choice" and mine:
            pool = mine + list(view["players"][other]["pieces"])[:1]
            size = max(1, min(len(pool), view["meeting"]["choose"] + rng.choice([-1, 0, 0, 0, 1])))
            cands += [{"act": "remove", "pieces": rng.sample(pool, size)} for _ in range(3)]
        elif mine:
            cands.append({"act": "remove", "pieces": mine[:1]})
        cands.append({"act": "buy_hitmen", "count": rng.choice([1, 2, 5, 15, 20])})
        cands.append({"act": "buy_official", "card": rng.choice(h["official"] or sorted(CARDS)[24:39])})
        if ts is not None:
            for o in ts["opportunities"]:
                cands.append({"act": "acquire", "piece": o["piece"]})
                target = o["city"] if o["type"] == "city" and rng.random() < 0.6 else rng.choice(
                    sorted(CITY_VALUE) + sorted(CAT_VALUE))
                cands.append({"act": "meeting", "piece": o["piece"], "target": target})
        out += [(seat, c) for c in rng.sample(cands, min(4, len(cands)))]
    return out


# ---- driving random games ------------------------------------------------------------------------------------


def _flat(e: Event) -> dict[str, Any]:
    doc = e.to_json()
    return {"audience": doc["audience"], "kind": doc["kind"], **doc["data"]}


def _hands(state: Any, seats: list[str]) -> dict[str, dict[str, list[str]]]:
    return {s: dict(GAME.view(state, s)["hand"]) for s in seats}


def _extra_move(view: dict[str, Any], hands: dict[str, dict[str, list[str]]], seat: str,
                rng: Random) -> dict[str, Any] | None:
    """Moves random play rarely makes, to reach meetings, gifts and cashing often."""
    ts = view["turn_state"]
    phase = view["phase"]
    if phase == "turn" and seat == view["active"]:
        if view["players"][seat]["money"] >= RULES["power_price"] and rng.random() < 0.3:
            return {"act": "buy_power"}
        for o in ts["opportunities"]:
            if not o["used"]:
                target = o["city"] if o["type"] == "city" else rng.choice(sorted(CIRCLES[o["type"]]))
                return {"act": "meeting", "piece": o["piece"], "target": target}
    if phase == "penalty_window" and rng.random() < 0.8:
        return {"act": "penalty"}
    if phase == "vote" and view["meeting"]["type"] == "penalty" and rng.random() < 0.7:
        return {"act": "vote", "side": "for", "votes": view["meeting"]["entitlements"][seat]}
    if phase == "turn" and seat == view["active"] and view["players"][seat]["hitmen_bought"] < 6:
        if view["players"][seat]["money"] >= 40000 and view["turn_state"]["dice"] is None:
            return {"act": "buy_hitmen", "count": 3}
    if phase in ("bargain", "session"):
        pl = view["players"][seat]
        others = [p for p in members(view) if p != seat]
        if pl["money"] >= 10000 and others and rng.random() < 0.5:
            return {"act": "give", "to": rng.choice(others),
                    "money": 10000 * rng.randint(1, min(20, pl["money"] // 10000))}
        cards = hands[seat]["power"] + hands[seat]["official"]
        if cards and others:
            return {"act": "give", "to": rng.choice(others), "card": rng.choice(cards)}
    return None


def play(seed: int, players: int, settings: dict[str, Any], max_steps: int = 3000, probe_rate: float = 0.3,
         timeout_rate: float = 0.04, end_rate: float = 0.0,
         tamper: Any = None) -> Checker:
    """One seeded random legal game, every step cross-checked."""
    rng = Random(seed)
    probe_rng = Random(f"probes-{seed}")
    seats = [f"p{i}" for i in range(1, players + 1)]
    GAME_OPTIONS.clear()
    GAME_OPTIONS.update(settings)
    chance = SeededChance(f"xoc-{seed}")
    out = GAME.setup(tuple(seats), settings, chance)
    state = out.state
    checker = Checker()
    for e in out.events:
        f = _flat(e)
        if f["kind"] == "turn_began":
            checker.income_at_start[f["turn"]] = f["income"]
    checker.check_view(GAME.view(state, None), _hands(state, seats))
    for _ in range(max_steps):
        pending = GAME.pending(state)
        if pending is None:
            break
        view = GAME.view(state, None)
        hands = _hands(state, seats)
        if probe_rng.random() < probe_rate:  # its own generator: the game does not depend on the probes
            for seat, probe in probes(view, hands, probe_rng):
                got = GAME.check(state, seat, probe)
                want = expected_code(view, hands[seat], seat, probe)
                code = None if got is None else got.code
                expect(code == want, "replay.md refusals / check order", seat, probe, code, want, view["phase"])
                checker.seen("probe")
        action = None
        if rng.random() < end_rate:
            action = Action(None, {"host": "end"})
        elif rng.random() < timeout_rate:
            action = Action(None, {"act": "timeout"})
        else:
            seats_now = [*pending.awaited, *pending.optional]
            rng.shuffle(seats_now)
            for seat in seats_now:
                mv: Any = _extra_move(view, hands, seat, rng) if rng.random() < 0.25 else None
                if mv is not None and GAME.check(state, seat, mv) is not None:
                    mv = None
                if mv is None:
                    mv = GAME.random_move(state, seat, rng)
                    # Boss attacks end most games early; keep a few so that games last (decks reshuffle).
                    while (mv is not None and mv.get("act") == "declare" and mv.get("attack")
                           and number(mv["piece"]) == 0 and rng.random() < 0.9):
                        mv = GAME.random_move(state, seat, rng)
                if mv is not None:
                    action = Action(seat, dict(mv))
                    break
            if action is None:
                action = Action(None, {"act": "timeout"})
        out = GAME.step(state, [action], chance)
        state = out.state
        result = GAME.results(state)
        events = [_flat(e) for e in out.events]
        after = GAME.view(state, None)
        if tamper is not None:  # tests of the checker itself: a planted error must be caught
            tamper(events, after)
        checker.after_step(view, hands, action.by, dict(action.move), events, after, _hands(state, seats),
                           GAME.pending(state), result)
    return checker


def settings_for(seed: int, cap: int = 30) -> tuple[int, dict[str, Any]]:
    """The seat count and settings of seed `seed`: 2-4 seats, both ballot options, auto income, rolled bases."""
    players = 2 + seed % 3
    settings: dict[str, Any] = {"round_cap": cap, "ballots": "sealed" if seed % 4 == 3 else "open",
                                "auto_income": seed % 5 == 4}
    if seed % 2 == 0:
        settings["bases"] = {f"p{i}": i - 1 for i in range(1, players + 1)}
        settings["first"] = "p1"
    return players, settings


def play_seeds(seeds: list[int], cap: int = 30, **kw: Any) -> dict[str, int]:
    """Every seed's game cross-checked; the counts of what was checked, summed."""
    total: dict[str, int] = {}
    for seed in seeds:
        players, settings = settings_for(seed, cap)
        checker = play(seed, players, settings, end_rate=0.002 if seed % 7 == 0 else 0.0, **kw)
        for k, v in checker.counts.items():
            total[k] = total.get(k, 0) + v
    return total
