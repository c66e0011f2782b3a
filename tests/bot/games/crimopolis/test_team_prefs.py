"""Team mode's reaction preferences (R118): each member's own, the seat answers with the stricter."""

from __future__ import annotations

from bot.games.crimopolis.prefs import ASK, AUTO, NEVER, Prefs, merge


def test_the_stricter_preference_wins() -> None:
    assert merge([AUTO, AUTO]) == AUTO and merge([AUTO, NEVER]) == NEVER and merge([NEVER, ASK]) == ASK
    assert merge([AUTO]) == AUTO and merge([]) == ASK


class Meta:
    def __init__(self) -> None:
        self.values: dict[str, str] = {}

    async def set_meta(self, key: str, value: str) -> None:
        self.values[key] = value

    async def get_meta(self, key: str) -> str | None:
        return self.values.get(key)


async def test_each_member_keeps_their_own_and_hands_it_on_with_their_place() -> None:
    db, prefs = Meta(), Prefs()
    await prefs.set(db, 1, "p1", AUTO, member=10)
    assert prefs.get(1, "p1", (10, 11)) == ASK, "a member who set nothing counts as ask"
    await prefs.set(db, 1, "p1", NEVER, member=11)
    assert prefs.get(1, "p1", (10, 11)) == NEVER and prefs.of(1, {"p1": (10, 11), "p2": (12,)}) == {
        "p1": NEVER, "p2": ASK,
    }  # fmt: skip
    await prefs.hand_on(db, 1, "p1", 11, 12)
    assert prefs.own(1, "p1", 12) == NEVER and prefs.own(1, "p1", 11) == ASK
    again = Prefs()
    await again.load(db)
    assert again.get(1, "p1", (10, 12)) == NEVER, "saved and read back at start-up"
    await prefs.set(db, 2, "p1", AUTO)  # a game without team mode: the seat's own
    assert prefs.get(2, "p1", (20,)) == AUTO and prefs.get(2, "p1") == AUTO
