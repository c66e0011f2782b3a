"""The `/crimecity rules` pages: Discord limits, autocomplete, and the facts each page must carry."""

from __future__ import annotations

import re

import pytest

from bot.games.crimecity.rules_pages import INDEX, TOPICS, RulesPage, page, topic_choices
from rules.crimecity.ids import CHARACTER_TITLES, LOCATION_TITLES, ROLE_TITLES, Role

EXPECTED_TOPICS = ["setup", "actions", "characters", "roles", "friendship", "resolution", "results", "notation"]
ALL_PAGES = [INDEX, *TOPICS.values()]


def text(p: RulesPage) -> str:
    return f"{p.title}\n{p.description}"


def test_topics() -> None:
    assert list(TOPICS) == EXPECTED_TOPICS
    for name, p in TOPICS.items():
        assert p.topic == name


@pytest.mark.parametrize("p", ALL_PAGES, ids=lambda p: p.topic)
def test_page_fits_a_discord_embed(p: RulesPage) -> None:
    assert 0 < len(p.title) <= 256
    assert 0 < len(p.description) <= 4096
    embed = p.embed_dict()
    assert embed["title"] == p.title and embed["description"] == p.description
    assert isinstance(embed["color"], int) and 0 <= embed["color"] <= 0xFFFFFF
    assert len(embed["title"]) + len(embed["description"]) <= 6000
    # Back-ticks and bold markers are balanced, so the markdown does not bleed.
    assert p.description.count("`") % 2 == 0
    assert p.description.count("**") % 2 == 0


def test_page_lookup() -> None:
    assert page(None) is INDEX
    assert page("") is INDEX
    assert page("  ") is INDEX
    assert page("index") is INDEX
    for name, p in TOPICS.items():
        assert page(name) is p
        assert page(name.upper()) is p
        assert page(f"  {name} ") is p
        assert page(p.title) is p
    assert page("char") is TOPICS["characters"]  # a unique prefix is enough
    assert page("resol") is TOPICS["resolution"]


def test_unknown_or_ambiguous_topic_gives_the_index_with_a_note() -> None:
    unknown = page("weather")
    assert unknown.title == INDEX.title
    assert "weather" in unknown.description and "not a topic" in unknown.description
    assert INDEX.description in unknown.description
    assert len(unknown.description) <= 4096
    ambiguous = page("re")  # resolution, results
    assert "several topics" in ambiguous.description
    long = page("x" * 500 + "`")
    assert len(long.description) <= 4096 and long.description.count("`") % 2 == 0


def test_index_lists_every_topic() -> None:
    for name, p in TOPICS.items():
        assert f"`{name}`" in INDEX.description
        assert p.title in INDEX.description


def test_autocomplete_without_input_lists_all() -> None:
    choices = topic_choices("")
    assert [v for _, v in choices] == EXPECTED_TOPICS
    assert len(choices) <= 25
    for name, value in choices:
        assert 1 <= len(name) <= 100 and 1 <= len(value) <= 100
        assert value in TOPICS


def test_autocomplete_filters() -> None:
    # Prefix matches first; "characters" follows for "restrictions" in its summary.
    assert [v for _, v in topic_choices("res")] == ["resolution", "results", "characters"]
    assert [v for _, v in topic_choices("Fri")] == ["friendship"]
    assert [v for _, v in topic_choices("CHAR")] == ["characters"]
    assert topic_choices("zzz") == []
    # Substring matches come after prefix matches.
    values = [v for _, v in topic_choices("tion")]
    assert set(values) >= {"resolution", "notation"}
    assert [v for _, v in topic_choices("cooldown")] == ["actions"]
    assert [v for _, v in topic_choices("ToL")] == ["results"]


def test_autocomplete_prefix_first() -> None:
    values = [v for _, v in topic_choices("ro")]
    assert values[0] == "roles"


def test_characters_page_names_all_eight_with_start_and_restriction() -> None:
    body = text(TOPICS["characters"])
    for title in CHARACTER_TITLES.values():
        assert title in body
    for abbr in ("POL", "SEC", "BAN", "ARM", "CLK", "DET", "GOV", "DAU"):
        assert f"({abbr})" in body
    for loc in LOCATION_TITLES.values():
        assert loc in body
    # One paragraph per character, each giving its start and its restriction (R10, R13).
    starts = {
        "Policeman": ("Town Hall", "Bank Robber"),
        "Secretary": ("Town Hall", "Fraud"),
        "Banker": ("Bank", "Bank Robber"),
        "Armed Guard": ("Bank", "Bank Robber"),
        "Store Clerk": ("Main Street", "no restriction"),
        "Detective": ("Main Street", "Mob Boss"),
        "Governor": ("Mansion", "Hitman"),
        "Governor's Daughter": ("Mansion", "Hitman"),
    }
    for name, (start, restriction) in starts.items():
        para = re.search(rf"\*\*The {re.escape(name)}\*\* \([A-Z]+\): ([^\n]+)", body)
        assert para, name
        assert start in para.group(1) and restriction in para.group(1), name
    assert "Store Clerk instead" in body  # the Daughter's fallback (R20)
    assert "detain" in body.lower()


def test_roles_page_gives_the_five_goals() -> None:
    body = text(TOPICS["roles"])
    for role, title in ROLE_TITLES.items():
        if role is not Role.NONE:
            assert title in body
    assert "Bank" in body and "neither the Armed Guard nor the Policeman" in body  # R22, Q10
    assert "4 different characters" in body and "Main Street" in body  # R24
    assert "later round" in body  # R25
    assert "/crimecity guess" in body  # R26
    assert "not necessarily in a row" in body  # Q9


def test_setup_page() -> None:
    body = text(TOPICS["setup"])
    for fact in ("bid", "highest bid", "previous Main Match", "Bids are paid", "ranking", "role", "3 characters"):
        assert fact.lower() in body.lower(), fact
    assert "/crimecity draft" in body


def test_actions_page() -> None:
    body = text(TOPICS["actions"])
    for fact in (
        "exactly two actions",
        "at most one",
        "single move",
        "Cooldowns",
        "two rounds in a row",
        "3 garnets",
        "no cooldown",
        "not movement actions",
        "parity",
    ):
        assert fact.lower() in body.lower(), fact


def test_friendship_page() -> None:
    body = text(TOPICS["friendship"])
    for fact in (
        "2 or more points",
        "network",
        "start of the round",
        "next round",
        "never goes down",
        "public",
        "3 garnets",
        "your own character",
    ):
        assert fact.lower() in body.lower(), fact


def test_resolution_page_order() -> None:
    body = TOPICS["resolution"].description
    steps = [
        "Friendship and garnets",
        "Information",
        "Detain",
        "Governor's send",
        "Moves and diagonals",
        "Daughter's summon",
        "Goals",
        "Death",
        "Cooldowns",
        "End check",
        "Publish",
    ]
    positions = [body.index(s) for s in steps]
    assert positions == sorted(positions)
    assert "before any movement" in body  # detain comes before every move (R68, Q15)
    assert "after the goal checks" in body  # R80


def test_results_page() -> None:
    body = text(TOPICS["results"])
    for fact in ("ToL", "EC", "15", "10", "7", "4", "13 each", "lowest garnet", "unanimously", "/crimecity ec"):
        assert fact in body, fact


def test_notation_page_matches_the_command_contract() -> None:
    body = TOPICS["notation"].description
    for form in (
        "move horizontal CHARACTER",
        "move vertical CHARACTER",
        "converse CHARACTER",
        "`ability`",
        "ability CHARACTER",
        "ability player PLAYER",
        "ability CHARACTER LOCATION",
        "friend FRIEND",
        "friend governor policeman bank",
        "town_hall",
        "main_street",
        "character=role",
        "none",
    ):
        assert form in body, form


def test_guess_example_parses_as_a_complete_guess() -> None:
    notation = pytest.importorskip("rules.crimecity.notation")
    example = re.search(r"Example: `([^`]+)`", TOPICS["notation"].description)
    assert example
    guess = notation.parse_guess(example.group(1))
    assert len(guess) == 8
    roles = [r for r in guess.values() if r is not Role.NONE]
    assert sorted(r.value for r in roles) == sorted(r.value for r in Role if r is not Role.NONE)


def test_action_examples_parse() -> None:
    notation = pytest.importorskip("rules.crimecity.notation")
    body = TOPICS["notation"].description
    body = body[body.index("**Examples**") : body.index("**Mob Boss")]
    examples = re.findall(r"- `((?:move|converse|ability|friend) [^`]+)`", body)
    examples.append("friend governor policeman bank")
    assert len(examples) >= 4
    for ex in examples:
        notation.parse_action(ex, lambda s: None)
