from random import Random
from tests.support.octable import fixed_chance, oc, open_game, seats, state_of
from tests.support.ocdriver import pick_social, play_out, pick


async def test_explore(table, monkeypatch) -> None:
    fixed_chance(monkeypatch, "four-47")
    t = table
    await open_game(t, ["andy", "grunkle", "cara", "dev"], round_cap=6, window_seconds=3000, bargain_minimum_minutes=0.00001)
    await play_out(t, Random(4), panel_share=0.0, picker=pick_social, until=lambda st: st["phase"] == "penalty_window")
    state = await state_of(t)
    who = await seats(t)
    print("WINDOW", state["window"])
    await t.idle()
    print("POST", t.posts()[-1][:800])
    off = state["window"]["offended"][0]["player"]
    r = await oc(t, who[off], "panel")
    print("PANEL", r.text(), [b["label"] for b in r.buttons()])
    r = await oc(t, who[off], "status")
    print("STATUS", r.text()[-500:])
    r = await oc(t, who[off], "penalty", call=True)
    print("CALL", r.text())
    await play_out(t, Random(5), panel_share=0.0, picker=pick_social, until=lambda st: st["phase"] in ("penalty_choice", "turn"))
    state = await state_of(t)
    print("PHASE", state["phase"], state["meeting"])
    if state["phase"] == "penalty_choice":
        offn = state["meeting"]["issue"]["offender"]
        ac = await t.fd.autocomplete(who[offn], t.chan, "organizedcrime remove", focused="pieces")
        print("REMOVE AC", ac[:5])
        r = await oc(t, who[offn], "panel")
        print("PANEL", r.text(), [o["value"] for s in r.selects() for o in s["options"]][:5])
