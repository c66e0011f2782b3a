from tests.support.octable import oc, open_game, seats, state_of


async def test_smoke(table) -> None:
    t = table
    await open_game(t, ["andy", "grunkle"])
    for p in t.posts():
        print("POST:", p)
    st = await state_of(t)
    who = await seats(t)
    chooser = st["choosers"][0]
    reply = await oc(t, who[chooser], "base", home="1")
    print("REPLY", reply.text())
    await t.idle()
    for p in t.posts()[-3:]:
        print("POST:", p)
    for n in ("andy", "grunkle"):
        print(n, "DMS", t.dm_texts(t.players[n]))
