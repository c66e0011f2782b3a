"""`python -m bot` as an operator meets it: --help, --version, one-line failures, no voice warnings,
the ready line, the invite link; and the package and documents it ships with."""

from __future__ import annotations

import ast
import asyncio
import contextlib
import logging
import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import aiohttp
import discord
import discord.voice_client as voice_client
import pytest

import bot.__main__ as entry
from bot import permissions, startup
from bot.config import SETTINGS
from tests.bot.test_preflight import TOKEN
from tests.support.table import Table

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
VOICE = "voice will NOT be supported"


def run_bot(*args: str, cwd: Path = ROOT, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "CRIMECITY_DB")}
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=base | {"PYTHONPATH": str(ROOT)} | env,
        capture_output=True,
        text=True,
        timeout=60,
    )


# ---- the command line ---------------------------------------------------------------------------


def test_help_lists_every_setting_and_exits_0(tmp_path: Path) -> None:
    run = run_bot("--help", cwd=tmp_path)
    assert run.returncode == 0 and run.stderr == ""
    assert "usage: python -m bot" in run.stdout
    for setting in SETTINGS:
        assert setting.name in run.stdout and setting.default in run.stdout


def test_version_is_the_package_version(tmp_path: Path) -> None:
    run = run_bot("--version", cwd=tmp_path)
    assert run.returncode == 0
    assert run.stdout.strip() == f"python -m bot {metadata.version('crimecity-bot')}"


def test_an_unknown_option_is_one_line(tmp_path: Path) -> None:
    run = run_bot("--tokne", "x", cwd=tmp_path)
    assert run.returncode == 2 and run.stdout == ""
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and "--tokne" in lines[0] and "--help" in lines[0]


@pytest.mark.parametrize(
    ("error", "code", "words"),
    [
        (discord.LoginFailure("Improper token has been passed."), 2, "rejected DISCORD_TOKEN"),
        (aiohttp.ClientConnectionError("no route"), 1, "Cannot reach Discord"),
        (ConnectionResetError(104, "reset"), 1, "Cannot reach Discord"),
        (PermissionError(13, "Permission denied", "data/crimecity.db"), 1, "Start-up failed (PermissionError"),
    ],
)
def test_start_up_failures_are_one_clear_line(monkeypatch, tmp_path, capsys, error, code, words) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("CRIMECITY_DB", str(tmp_path / "cc.db"))
    monkeypatch.chdir(tmp_path)

    async def failing_serve(client, token):  # type: ignore[no-untyped-def]
        await client.close()
        raise error

    monkeypatch.setattr(entry, "serve", failing_serve)
    assert entry.main([]) == code
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0]
    if code == 1 and "Cannot" not in words:
        assert "Cannot reach Discord" not in err[0]  # a local failure is not reported as the network's


def test_a_token_of_the_wrong_shape_never_connects(monkeypatch, tmp_path, capsys) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "mfa.abcdefghijklmnop")  # a user token, not a bot's
    monkeypatch.setenv("CRIMECITY_DB", str(tmp_path / "cc.db"))
    served: list[str] = []

    async def serve(client, token):  # type: ignore[no-untyped-def]
        served.append(token)

    monkeypatch.setattr(entry, "serve", serve)
    assert entry.main([]) == 2
    assert served == []
    assert capsys.readouterr().err.strip() == entry.preflight.BAD_SHAPE


# ---- voice warnings -------------------------------------------------------------------------------


def test_main_silences_only_the_voice_warnings(monkeypatch, tmp_path, caplog) -> None:
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True, raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", TOKEN)
    monkeypatch.setenv("CRIMECITY_DB", str(tmp_path / "cc.db"))

    async def serve(client, token):  # type: ignore[no-untyped-def]
        logging.getLogger("discord.client").warning("another warning")
        await client.close()

    monkeypatch.setattr(entry, "serve", serve)
    caplog.set_level(logging.WARNING, logger="discord")
    assert entry.main([]) == 0
    messages = [r.getMessage() for r in caplog.records]
    assert not [m for m in messages if VOICE in m]
    assert "another warning" in messages


def test_without_quiet_voice_discord_py_warns() -> None:
    """The control: in a fresh interpreter, building a client logs the warnings unless quieted."""
    code = (
        "import logging, discord, sys\n"
        "logging.basicConfig(level=logging.WARNING)\n"
        "from bot import startup\n"
        "if sys.argv[1] == 'quiet': startup.quiet_voice()\n"
        "discord.Client(intents=discord.Intents.none())\n"
    )
    runs = {
        how: subprocess.run(
            [sys.executable, "-c", code, how], cwd=ROOT, capture_output=True, text=True, timeout=60
        ).stderr
        for how in ("loud", "quiet")
    }
    if voice_client.has_nacl and getattr(voice_client, "has_dave", True):
        pytest.skip("PyNaCl and davey are both installed: discord.py has nothing to warn about")
    assert VOICE in runs["loud"]
    assert VOICE not in runs["quiet"]


# ---- the ready line and the invite link -----------------------------------------------------------


@pytest.mark.sqlite_file
async def test_the_ready_line(tmp_path: Path, caplog) -> None:
    from tests.fakediscord import FakeDiscord

    caplog.set_level(logging.INFO, logger="bot.startup")
    async with FakeDiscord() as fd:
        fd.add_guild("Crime Club").add_text_channel("crime-city")
        fd.add_guild("Second Club")
        t = Table(fd, None, None, None, {}, tmp_path / "games" / "cc.db")
        client = await t.start_bot()
        for _ in range(100):  # on_ready runs as its own task
            lines = [r.getMessage() for r in caplog.records if r.name == "bot.startup"]
            if lines:
                break
            await asyncio.sleep(0.02)
        assert len(lines) == 1
        line = lines[0]
        assert f"ready as {client.user} (id {client.user.id})" in line
        assert "on 2 servers" in line
        assert f"database {tmp_path / 'games' / 'cc.db'}" in line
        assert permissions.invite_url(client.application_id) in line and client.application_id
        await t.stop_bot()


def test_the_ready_line_never_shows_a_password() -> None:
    class Client:
        user = None
        guilds = [object()]
        application_id = 42

    line = startup.ready_line(Client(), "postgresql://bot:hunter2@db.example:5432/cc")  # type: ignore[arg-type]
    assert "hunter2" not in line and "db.example:5432/cc" in line and "on 1 server;" in line


def test_needed_permissions() -> None:
    p = permissions.NEEDED
    assert p.view_channel and p.send_messages and p.embed_links and p.attach_files and p.read_message_history
    assert p.value == 117760
    assert not (p.administrator or p.manage_messages or p.mention_everyone)


def test_readme_invite_link_is_computed_from_the_permissions() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    numbers = {int(n) for n in re.findall(r"permissions=(\d+)", readme)}
    assert numbers == {permissions.NEEDED.value}
    assert permissions.invite_url("APP_ID") in readme
    assert "Application ID" in readme  # where to find the id to put in it
    shown = {  # as the Developer Portal names them
        "view_channel": "View Channels",
        "send_messages": "Send Messages",
        "embed_links": "Embed Links",
        "attach_files": "Attach Files",
        "read_message_history": "Read Message History",
    }
    assert discord.Permissions(**dict.fromkeys(shown, True)) == permissions.NEEDED
    flat = " ".join(readme.split())
    for name in shown.values():
        assert f"*{name}*" in flat, name


# ---- packaging ------------------------------------------------------------------------------------


def _imports(folder: Path) -> set[str]:
    """Top-level names imported by the .py files under `folder` (relative imports left out)."""
    names: set[str] = set()
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names


def _distributions(names: set[str]) -> set[str]:
    local = {p.stem for p in ROOT.iterdir()} | {p.stem for p in (ROOT / "bench").iterdir()}
    found = metadata.packages_distributions()
    third_party = {n for n in names if n not in sys.stdlib_module_names and n not in local}
    missing = {n for n in third_party if n not in found}
    assert not missing, f"imported but not installed: {missing}"
    return {_norm(d) for n in third_party for d in found[n]}


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def _declared(requirements: list[str]) -> set[str]:
    return {_norm(re.split(r"[<>=!~;\[ ]", r, maxsplit=1)[0]) for r in requirements}


def test_every_import_is_a_declared_dependency() -> None:
    runtime = _declared(PYPROJECT["project"]["dependencies"])
    test = runtime | _declared(PYPROJECT["project"]["optional-dependencies"]["test"])
    assert _distributions(_imports(ROOT / "bot") | _imports(ROOT / "rules")) <= runtime
    assert _distributions(_imports(ROOT / "tests") | _imports(ROOT / "bench")) <= test


def test_package_data_exists_and_the_license_is_spdx() -> None:
    for package, globs in PYPROJECT["tool"]["setuptools"]["package-data"].items():
        for pattern in globs:
            assert list((ROOT / package).glob(pattern)), f"{package}/{pattern} matches nothing"
    assert PYPROJECT["project"]["license"] == "MIT"
    for name in PYPROJECT["project"]["license-files"]:
        assert "MIT License" in (ROOT / name).read_text(encoding="utf-8")


def test_the_test_run_hides_discord_py_audioop_warning_only(tmp_path: Path) -> None:
    (tmp_path / "test_w.py").write_text(
        "import warnings\n"
        "def test_w():\n"
        "    import discord.player  # noqa: F401\n"
        "    warnings.warn('a deprecation of our own', DeprecationWarning)\n"
    )
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path),
         "-p", "no:cacheprovider", "-o", "addopts=", str(tmp_path / "test_w.py")],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert "1 passed" in run.stdout, run.stdout
    assert "a deprecation of our own" in run.stdout
    assert "audioop" not in run.stdout


# ---- documents ------------------------------------------------------------------------------------


def test_env_example_and_operations_doc_name_every_setting() -> None:
    example = (ROOT / ".env.example").read_text(encoding="utf-8")
    operations = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    for setting in SETTINGS:
        assert re.search(rf"^{setting.name}=", example, re.M), setting.name
        assert setting.name in operations, setting.name
    debug = [line for line in example.splitlines() if "DEBUG" in line]
    assert any("payload" in line for line in debug), "warn that DEBUG logs every payload"


def test_the_service_files_run_the_bot_from_its_folder() -> None:
    unit = (ROOT / "deploy" / "crimecity-bot.service").read_text(encoding="utf-8")
    assert re.search(r"^WorkingDirectory=/\S+", unit, re.M)
    assert re.search(r"^ExecStart=/\S+/python -m bot$", unit, re.M)
    assert re.search(r"^RestartPreventExitStatus=2 3$", unit, re.M)  # a settings or content problem is not retried
    docker = (ROOT / "deploy" / "Dockerfile").read_text(encoding="utf-8")
    assert re.search(r'^CMD \["python", "-m", "bot"\]$', docker, re.M)
    assert re.search(r"^WORKDIR /\S+", docker, re.M)


POINTER = re.compile(r"(?<![\w/.-])((?:docs|tests|bench|deploy|bot|rules)/[\w./-]+\.md)\b")  # a document's path


# Documents being written elsewhere, that code already points to. Remove an entry once it lands.
PENDING: set[str] = set()  # documents pointed to before they are written (none now)


def test_every_document_the_project_points_to_is_shipped() -> None:
    here = Path(__file__).resolve()
    sources = [p for p in ROOT.rglob("*") if p.suffix in (".py", ".md") and _ours(p) and p.resolve() != here]
    missing = []
    for path in sources:
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(ROOT).as_posix()
        missing += [f"{where}: {m}" for m in POINTER.findall(text) if not (ROOT / m).exists() and m not in PENDING]
        for name in ("commands.md", "replay.md", "rulings-spec.md"):
            if re.search(rf"(?<![\w/-]){re.escape(name)}", text) and not (ROOT / "docs" / "crimecity" / name).exists():
                missing.append(f"{where}: {name}")
        if re.search(r"(?<![\w/-])spec/replay\.md", text):
            missing.append(f"{where}: spec/replay.md (outside the project)")
    assert not missing, "\n".join(missing)


def _ours(path: Path) -> bool:
    parts = path.relative_to(ROOT).parts
    return not any(p.startswith(".") or p in ("build", "__pycache__") or p.endswith(".egg-info") for p in parts)


def test_the_documented_backups_hold_what_is_still_in_the_wal(tmp_path: Path) -> None:
    """docs/operations.md's backup commands, run as written while the database is open in WAL mode
    with commits that are only in the -wal file (a plain copy of the .db would miss them)."""
    operations = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    commands = re.findall(r"^(sqlite3 data/crimecity\.db \".backup .*|\.venv/bin/python -c .*)$", operations, re.M)
    assert len(commands) == 2, commands
    (tmp_path / "data").mkdir()
    (tmp_path / "backups").mkdir()
    live = sqlite3.connect(tmp_path / "data" / "crimecity.db")  # the running bot, as far as SQLite can tell
    live.execute("PRAGMA journal_mode=WAL")
    live.execute("PRAGMA wal_autocheckpoint=0")
    live.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, state TEXT)")
    live.executemany("INSERT INTO games (state) VALUES (?)", [("x" * 500,)] * 200)
    live.commit()
    try:
        shutil.copy(tmp_path / "data" / "crimecity.db", tmp_path / "copy.db")
        with contextlib.closing(sqlite3.connect(tmp_path / "copy.db")) as copy:
            assert not copy.execute("SELECT name FROM sqlite_master").fetchall(), "the WAL held nothing back"
        for command in commands:
            if command.startswith("sqlite3") and shutil.which("sqlite3") is None:
                continue  # the Python form below is the same backup
            command = command.replace(".venv/bin/python", shlex.quote(sys.executable), 1)
            for old in tmp_path.joinpath("backups").iterdir():
                old.unlink()
            subprocess.run(command, shell=True, cwd=tmp_path, check=True, timeout=60)
            (backup,) = tmp_path.joinpath("backups").iterdir()
            with contextlib.closing(sqlite3.connect(backup)) as conn:
                assert conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] == 200
                assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    finally:
        live.close()
