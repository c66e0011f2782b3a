"""The state as replay.md prints it, and the contract's views, built as allow-lists (R111-R113):
the public part names no card in a hand and no order of the stack or a deck; a seat's view adds that
seat's own hands and drawn cards, nothing of the others."""

from __future__ import annotations

from typing import Any

from .content import Content
from .state import PLAY, State


def public_state(c: Content, s: State) -> dict[str, Any]:
    geo = s.geo
    blocks = {}
    for bid, b in geo.blocks.items():
        held = s.gangsters.get(bid)
        blocks[bid] = {
            "cells": list(b.cells),
            "kind": b.kind,
            "owner": s.owner_of_color(b.color) if b.kind != "city" else None,
            "names": list(b.names),
            "gangsters": {} if held is None else {held[0]: held[1]},
        }
    streets = {}
    for st, empty in geo.streets.items():
        held = s.gangsters.get(st)
        streets[st] = {"frontier": empty is not None, "gangsters": {} if held is None else {held[0]: held[1]}}
    players = {}
    for i, p in enumerate(s.players):
        me = s.pl[p]
        sh = geo.cell_of_tile.get(c.safe_house(s.colors[i]))
        players[p] = {
            "seat": i + 1,
            "color": s.colors[i],
            "prestige": me.prestige,
            "bodies": me.bodies,
            "supply": me.supply,
            "jobs": len(me.jobs),
            "fortunes": len(me.fortunes),
            "destinies": list(me.destinies),
            "safe_house": None if sh is None else geo.block_of[sh],
        }
    turn = None
    if s.phase == PLAY:
        turn = {"player": s.active, "number": s.number, "hours": s.hours, "timed_out": s.timed_out}
    return {
        "phase": s.phase,
        "turn": turn,
        "pending": public_pending(s),
        "final": None if s.final is None else dict(s.final),
        "city": {
            "tiles": {cell: {"tile": t, "block_side": b} for cell, (t, b) in geo.tiles.items()},
            "blocks": blocks,
            "streets": streets,
        },
        "revealed": list(s.revealed),
        "stack": len(s.stack),
        "decks": {k: len(v) for k, v in s.decks.items()},
        "tombstones": 40 - s.bodies_total(),
        "players": players,
    }


def public_pending(s: State) -> dict[str, Any] | None:
    p = s.pending
    if p is None:
        return None
    out = {"kind": p["kind"], "player": p["player"]}
    for key in ("step", "street", "cell", "card"):  # `card` is the card being resolved: shown to everyone
        if key in p:
            out[key] = p[key]
    return out


def private_of(s: State, player: str) -> dict[str, Any]:
    me = s.pl[player]
    keep = s.pending is not None and s.pending["kind"] == "keep" and s.pending["player"] == player
    return {"jobs": sorted(me.jobs), "fortunes": sorted(me.fortunes), "drawn": list(me.drawn) if keep else []}


def full_state(c: Content, s: State) -> dict[str, Any]:
    """replay.md's `state`: the public part plus every player's `private` part."""
    out = public_state(c, s)
    out["private"] = {p: private_of(s, p) for p in s.players}
    return out


def seat_view(c: Content, s: State, seat: str | None) -> dict[str, Any]:
    out = public_state(c, s)
    if seat is not None and seat in s.pl:
        out["private"] = {seat: private_of(s, seat)}
    return out
