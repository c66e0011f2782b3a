import time
from random import Random

from tests.support.ocdriver import awaited, by_command, by_panel, pick
from tests.support.octable import oc, open_game


async def test_explore(table, monkeypatch) -> None:
    import bot.host.stepper as stepper

    import types

    monkeypatch.setattr(stepper, "secrets", types.SimpleNamespace(token_hex=lambda n=16: "feedface" * 4))
    t = table
    await open_game(t, ["andy", "grunkle"], bargain_minimum_minutes=0.0001)
    rng = Random(5)
    t0 = time.perf_counter()
    n = 0
    while n < 600:
        state, seat = await awaited(t)
        if seat is None:
            break
        action = pick(state, seat, rng)
        try:
            if rng.random() < 0.4:
                reply = await by_panel(t, seat, action, state)
            else:
                reply = await by_command(t, seat, action, state)
        except AssertionError as e:
            print("PANEL MISS", e)
            reply = await by_command(t, seat, action, state)
        text = reply.text()
        if "Not allowed" in text or "Could not" in text or "Sorry" in text:
            print("REFUSED", action, text)
            raise AssertionError(text)
        n += 1
    await t.idle()
    print("actions", n, "secs", time.perf_counter() - t0, "posts", len(t.posts()))
    for p in t.posts()[-3:]:
        print("POST:", p)
