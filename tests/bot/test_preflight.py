"""`python -m bot` checks its settings and its database before it logs in: one line per problem,
naming the setting and the fix, exit 2, no traceback, nothing created."""

from __future__ import annotations

import base64
import ctypes
import os
import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from bot import preflight
from bot.config import Settings
from bot.storage.db import migration_files

ROOT = Path(__file__).resolve().parents[2]
TOKEN = base64.b64encode(b"123456789012345678").decode().rstrip("=") + ".GaBcDe.abcdefghijklmnopqrstuvwxyz0123456789AB"


def unprivileged() -> Callable[[], None] | None:
    """A `preexec_fn` under which file permissions apply to the child even when the tests run as root.

    Root ignores a read-only file or folder (CAP_DAC_OVERRIDE), so a read-only case would pass for the
    wrong reason. Dropping the two capabilities from the child's bounding set makes it an ordinary user
    for file access, without needing another account.
    """
    if os.geteuid() != 0:
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
    except OSError:
        pytest.skip("running as root without libc's prctl: cannot test read-only files")
    pr_capbset_drop, cap_dac_override, cap_dac_read_search = 24, 1, 2
    probe = subprocess.run(  # can this process drop them at all (CAP_SETPCAP)?
        [sys.executable, "-c", "pass"],
        preexec_fn=lambda: _drop(libc, pr_capbset_drop, (cap_dac_override, cap_dac_read_search)),
        capture_output=True,
    )
    if probe.returncode != 0:
        pytest.skip("running as root and cannot drop CAP_DAC_OVERRIDE: cannot test read-only files")
    return lambda: _drop(libc, pr_capbset_drop, (cap_dac_override, cap_dac_read_search))


def _drop(libc: ctypes.CDLL, op: int, caps: tuple[int, ...]) -> None:
    for cap in caps:
        if libc.prctl(op, cap, 0, 0, 0) != 0:
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def run_bot(cwd: Path, *, as_user: bool = False, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "CRIMECITY_DB", "LOG_LEVEL")}
    return subprocess.run(
        [sys.executable, "-m", "bot"],
        cwd=cwd,
        env=base | {"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": TOKEN} | env,
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=unprivileged() if as_user else None,
    )


def one_line(run: subprocess.CompletedProcess[str], *words: str) -> str:
    """Exit 2, nothing on stdout, exactly one line on stderr holding every one of `words`."""
    lines = run.stderr.strip().splitlines()
    assert run.returncode == 2, run.stderr
    assert run.stdout == "" and "Traceback" not in run.stderr
    assert len(lines) == 1, run.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def make_db(path: Path, user_version: int | None = None) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE t (x)")
    if user_version is not None:
        conn.execute(f"PRAGMA user_version={user_version}")
    conn.commit()
    conn.close()


def test_a_database_path_under_a_file(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    line = one_line(run_bot(tmp_path, CRIMECITY_DB="afile/games/cc.db"), "CRIMECITY_DB=afile/games/cc.db", "is a file")
    assert str(tmp_path / "afile") in line


def test_a_database_path_that_is_a_folder(tmp_path: Path) -> None:
    (tmp_path / "games").mkdir()
    one_line(run_bot(tmp_path, CRIMECITY_DB="games"), "CRIMECITY_DB=games", "is a folder", "games/crimecity.db")


def test_a_new_database_in_a_read_only_folder(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    one_line(run_bot(tmp_path, as_user=True, CRIMECITY_DB="ro/cc.db"), "CRIMECITY_DB=ro/cc.db", "not writable")
    one_line(run_bot(tmp_path, as_user=True, CRIMECITY_DB="ro/new/cc.db"), "CRIMECITY_DB", "create")
    assert list(folder.iterdir()) == []


def test_an_existing_database_in_a_read_only_folder(tmp_path: Path) -> None:
    """WAL needs the folder too: the -wal and -shm files live next to the database."""
    folder = tmp_path / "ro"
    folder.mkdir()
    make_db(folder / "cc.db")
    folder.chmod(0o555)
    one_line(run_bot(tmp_path, as_user=True, CRIMECITY_DB="ro/cc.db"), "CRIMECITY_DB=ro/cc.db", "-wal", "folder")


def test_a_read_only_database_file(tmp_path: Path) -> None:
    make_db(tmp_path / "cc.db")
    (tmp_path / "cc.db").chmod(0o444)
    one_line(run_bot(tmp_path, as_user=True, CRIMECITY_DB="cc.db"), "CRIMECITY_DB=cc.db", "read-only")


def test_a_folder_the_user_may_not_enter(tmp_path: Path) -> None:
    folder = tmp_path / "closed"
    (folder / "sub").mkdir(parents=True)
    folder.chmod(0o000)
    try:
        one_line(run_bot(tmp_path, as_user=True, CRIMECITY_DB="closed/sub/cc.db"), "CRIMECITY_DB", "access")
    finally:
        folder.chmod(0o755)


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    (tmp_path / "cc.db").write_text("these are my notes, not a database\n" * 200)
    one_line(run_bot(tmp_path, CRIMECITY_DB="cc.db"), "CRIMECITY_DB=cc.db", "not a SQLite database")
    assert (tmp_path / "cc.db").read_text().startswith("these are my notes")


def test_a_database_written_by_a_newer_version(tmp_path: Path) -> None:
    newest = len(migration_files())
    make_db(tmp_path / "cc.db", user_version=newest + 1)
    before = (tmp_path / "cc.db").read_bytes()
    one_line(
        run_bot(tmp_path, CRIMECITY_DB="cc.db"),
        "CRIMECITY_DB=cc.db",
        "newer version",
        f"schema {newest + 1}",
        f"up to {newest}",
        "backup",
    )
    assert (tmp_path / "cc.db").read_bytes() == before and not (tmp_path / "cc.db-wal").exists()


@pytest.mark.parametrize("level", ["garbage", "basic_format", "info ", "20", ""])
def test_log_level(tmp_path: Path, level: str) -> None:
    if level.strip() in ("info", ""):  # the default, in any case: without a token, only that is reported
        one_line(run_bot(tmp_path, LOG_LEVEL=level, DISCORD_TOKEN=""), "DISCORD_TOKEN is not set")
    else:
        one_line(run_bot(tmp_path, LOG_LEVEL=level), f"LOG_LEVEL={level!r}", "DEBUG, INFO, WARNING, ERROR, CRITICAL")


def test_every_problem_is_reported_at_once_one_line_each(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("x")
    run = run_bot(tmp_path, DISCORD_TOKEN="nope", LOG_LEVEL="loud", COMMAND_SYNC="guild:x", CRIMECITY_DB="afile/cc.db")
    assert run.returncode == 2 and run.stdout == "" and "Traceback" not in run.stderr
    names = [line.split("=")[0].split(" ")[0] for line in run.stderr.strip().splitlines()]
    assert names == ["DISCORD_TOKEN", "LOG_LEVEL", "COMMAND_SYNC", "CRIMECITY_DB"], run.stderr


def test_a_good_setup_passes_and_creates_nothing(tmp_path: Path) -> None:
    settings = Settings.from_env({"DISCORD_TOKEN": TOKEN, "CRIMECITY_DB": str(tmp_path / "new" / "cc.db")})
    assert preflight.check(settings) == []
    assert list(tmp_path.iterdir()) == []
    make_db(tmp_path / "cc.db", user_version=len(migration_files()))
    assert preflight.database_problem(str(tmp_path / "cc.db")) is None
    (tmp_path / "empty.db").write_bytes(b"")  # SQLite's own new file: fine
    assert preflight.database_problem(str(tmp_path / "empty.db")) is None
    assert preflight.check(Settings.from_env({"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "debug"})) == []


@pytest.mark.parametrize(
    "value", ["postgresql://bot:secret@db.example/crimecity", "postgres://localhost/cc", ":memory:"]
)
def test_no_file_checks_for_a_server_url_or_memory(value: str) -> None:
    assert preflight.database_problem(value) is None


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


@pytest.mark.parametrize(
    "token",
    [
        "not-a-token",
        "abc.def",
        f"{TOKEN}.extra",
        f"Bot {TOKEN}",
        f"'{TOKEN}'",
        f"{_b64(b'hello')}.GaBcDe.abcdef",  # the first part is no user id
        f"{_b64(b'1234')}..abcdef",
        f"{_b64(b'1234')}.Ga+cDe.abc/ef",  # base64url has no + or /
        "%%%.%%%.%%%",
        "a" * 72,
    ],
)
def test_a_token_of_the_wrong_shape_is_refused(token: str) -> None:
    assert preflight.token_problem(token) == preflight.BAD_SHAPE


@pytest.mark.parametrize("token", [TOKEN, f"{_b64(b'80351110224678912')}.Gq1w2e.{'x' * 38}", f"{_b64(b'1')}.a.b"])
def test_a_token_of_the_right_shape_passes(token: str) -> None:
    assert preflight.token_problem(token) is None


def test_the_token_never_appears_in_a_message(tmp_path: Path) -> None:
    secret = f"{_b64(b'hello')}.Secret.Part"
    run = run_bot(tmp_path, DISCORD_TOKEN=secret)
    one_line(run, "DISCORD_TOKEN does not look like a bot token")
    assert "Secret" not in run.stderr and _b64(b"hello") not in run.stderr


@pytest.mark.parametrize("value", ["off", "fsync", "2"])
def test_an_unknown_db_sync_is_refused_by_name(tmp_path: Path, value: str) -> None:
    one_line(run_bot(tmp_path, DISCORD_TOKEN=TOKEN, CRIMECITY_DB_SYNC=value), f"CRIMECITY_DB_SYNC={value!r}",
             "full or normal")


def test_the_db_sync_setting_is_read_in_any_case(tmp_path: Path) -> None:
    assert Settings.from_env({}).db_sync == "full"
    for value, want in (("Normal", "normal"), (" FULL ", "full"), ("", "full")):
        settings = Settings.from_env({"CRIMECITY_DB_SYNC": value, "CRIMECITY_DB": str(tmp_path / "a.db")})
        assert settings.db_sync == want and not [p for p in preflight.check(settings) if "DB_SYNC" in p], value
