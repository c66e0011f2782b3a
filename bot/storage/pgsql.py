"""SQL written for SQLite (`?` placeholders) made ready for PostgreSQL (`$1`, `$2`, ...)."""

from __future__ import annotations

from functools import lru_cache


@lru_cache(maxsize=4096)
def numbered(sql: str) -> str:
    """`?` -> `$n`, outside string literals ('...'), quoted names ("...") and comments."""
    out: list[str] = []
    n = 0
    i, size = 0, len(sql)
    while i < size:
        c = sql[i]
        if c in ("'", '"'):
            end = i + 1
            while end < size:
                if sql[end] == c:
                    if end + 1 < size and sql[end + 1] == c:  # '' inside a literal
                        end += 2
                        continue
                    break
                end += 1
            out.append(sql[i : end + 1])
            i = end + 1
        elif c == "-" and sql.startswith("--", i):
            end = sql.find("\n", i)
            end = size if end < 0 else end
            out.append(sql[i:end])
            i = end
        elif c == "?":
            n += 1
            out.append(f"${n}")
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def rowcount(status: str) -> int:
    """The count in a command status ("UPDATE 3", "INSERT 0 1", "DELETE 0"); 0 when it has none."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0
