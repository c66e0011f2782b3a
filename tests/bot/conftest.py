"""What every test of the bot shares."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def house_content_after() -> Iterator[None]:
    """A test that put the games on a group's content (CRIMECITY_CONTENT, process-wide) leaves them on the house
    content for the next one (a no-op when they are on it)."""
    yield
    from bot import content
    from bot.games import presentations

    content.use(None, presentations())
