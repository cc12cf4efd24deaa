"""Reading files: cat, head, tail, wc, grep, find, diff, sort, uniq, md5sum."""

from __future__ import annotations

import difflib
import fnmatch
import hashlib
import re
from datetime import timedelta
from typing import Annotated, Any, Literal

from pydantic import Field

from servers.domains.filesystem import posix as P
from servers.domains.filesystem.model import CSV, DIR, READABLE, TEXT, Lines, Node, User, filesystem
from servers.domains.filesystem.posix import worded
from servers.domains.filesystem.rules import _abs, _read
from servers.kit import Db, Offset, PageSize, PathRef, Ref, ShortText, ToolError

# -- reading files -----------------------------------------------------------------------------


@filesystem.tool(
    returns=Node, says=["show me {path}", "what does {path} say?", "cat {path}", "read the file {path}"]
)
def cat(db: Db, path: PathRef[Node, TEXT]) -> dict:
    """The contents of a text file (cut at 8,000 characters; use head/tail or grep for the rest).

    Args:
        path: The file to print.
    """
    a = P.actor(db)
    n = _read(db, a, path, "cat")
    return {"path": path, **db.clip(n["content"] or "", hint="use head, tail or grep")}


def _lines(n: dict[str, Any]) -> list[str]:
    return (n["content"] or "").splitlines()


@filesystem.tool(says=["show the first {lines} lines of {path}", "head {path}"])
def head(db: Db, path: PathRef[Node, TEXT], lines: Lines = 10) -> dict:
    """The first lines of a text file.

    Args:
        path: The file.
        lines: How many lines (default 10).
    """
    n = _read(db, P.actor(db), path, "head")
    body = _lines(n)
    return {"path": path, "lines": len(body[:lines]), **db.clip("\n".join(body[:lines]))}


@filesystem.tool(
    says=["show the last {lines} lines of {path}", "tail {path}", "what are the latest entries in {path}?"]
)
def tail(db: Db, path: PathRef[Node, TEXT], lines: Lines = 10) -> dict:
    """The last lines of a text file (log files end with the newest entries).

    Args:
        path: The file.
        lines: How many lines (default 10).
    """
    n = _read(db, P.actor(db), path, "tail")
    body = _lines(n)
    part = body[-lines:]
    return {
        "path": path,
        "lines": len(part),
        "first_line": len(body) - len(part) + 1,
        **db.clip("\n".join(part)),
    }


@filesystem.tool(says=["how many lines are in {path}?", "count the words in {path}", "wc {path}"])
def wc(db: Db, path: PathRef[Node, READABLE], mode: Literal["l", "w", "c", "all"] = "all") -> dict:
    """Count lines, words and bytes of a file (binary files: bytes only).

    Args:
        path: The file.
        mode: l (lines), w (words), c (bytes) or all.
    """
    n = _read(db, P.actor(db), path, "wc", text=False)
    if n["is_binary"] and mode in ("l", "w", "all"):
        if mode != "all":
            raise ToolError(f"wc: {path}: binary file; only the byte count (mode c) is available")
        return {"path": path, "bytes": n["size_bytes"]}
    body = n["content"] or ""
    counts = {"lines": body.count("\n"), "words": len(body.split()), "bytes": n["size_bytes"]}
    keep = {"l": ["lines"], "w": ["words"], "c": ["bytes"], "all": list(counts)}[mode]
    return {"path": path, **{k: counts[k] for k in keep}}


def _search_lines(
    a: P.Actor, files: list[tuple[dict, str]], rx: re.Pattern[str], count_only: bool, limit: int
) -> tuple[list[dict], list[dict], list[str], int]:
    """Scan the text files for ``rx``: the first ``limit`` matching lines (or per-file counts),
    a permission error per unreadable file, and the total of matching lines. Binary files are skipped."""
    matches: list[dict] = []
    counts: list[dict] = []
    errors: list[str] = []
    total = 0
    for r, p in files:
        shown = P.display(a, p)
        if not P.may(a, r, P.R):
            errors.append(f"grep: {shown}: Permission denied")
            continue
        if r["is_binary"]:
            continue
        hits = 0
        for i, line in enumerate((r["content"] or "").splitlines(), 1):
            if rx.search(line):
                hits += 1
                total += 1
                if not count_only and len(matches) < limit:
                    matches.append({"path": shown, "line": i, "text": line[:500]})
        if count_only and hits:
            counts.append({"path": shown, "count": hits})
    return matches, counts, errors, total


def _find_matches(
    items: list,
    name: str | None,
    kind: str | None,
    min_size: int | None,
    max_size: int | None,
    since: str | None,
    owner: str | None,
) -> list[tuple[dict, str]]:
    """The walked entries passing every given filter (None means no filter), in walk order."""
    return [
        (r, p)
        for r, p, _ in items
        if (name is None or fnmatch.fnmatchcase(r["name"] or "/", name))
        and (kind is None or r["kind"] == kind)
        and (min_size is None or r["size_bytes"] >= min_size)
        and (max_size is None or r["size_bytes"] <= max_size)
        and (since is None or r["mtime"] >= since)
        and (owner is None or r["owner_id"] == owner)
    ]


@filesystem.tool(
    returns=Node,
    says=[
        "find the lines with '{pattern}' in {path}",
        "grep for {pattern} in {path}",
        "search {path} recursively for '{pattern}'",
    ],
)
def grep(
    db: Db,
    pattern: ShortText,
    path: PathRef[Node, TEXT],
    recursive: bool = False,
    ignore_case: bool = False,
    fixed_string: bool = False,
    count_only: bool = False,
    limit: PageSize = 50,
) -> dict:
    """Lines matching a regular expression (or a literal string), with file paths and line numbers.

    Args:
        pattern: A Python regular expression, or plain text with fixed_string.
        path: A file, or a directory with recursive.
        recursive: Search every readable file below a directory.
        ignore_case: Match regardless of case.
        fixed_string: Treat the pattern as literal text.
        count_only: Only the number of matching lines per file.
        limit: Maximum matching lines to return.
    """
    a = P.actor(db)
    try:
        rx = re.compile(re.escape(pattern) if fixed_string else pattern, re.IGNORECASE if ignore_case else 0)
    except re.error as exc:
        raise ToolError(f"grep: invalid regular expression {pattern!r}: {exc}") from None
    with worded("grep: {path}: {reason}"):
        n = P.resolve(db, a, path)
    if n["kind"] == "dir":
        if not recursive:
            raise ToolError(f"grep: {path}: Is a directory (use recursive to search inside)")
        items, denied = P.walk(db, a, n, _abs(db, n), content=True)
        files = [(r, p) for r, p, _ in items if r["kind"] == "file"]
    else:
        n = _read(db, a, path, "grep", text=False)
        files, denied = [(n, _abs(db, n))], []
    matches, counts, errors, total = _search_lines(a, files, rx, count_only, limit)
    errors += [f"grep: {P.display(a, p)}: Permission denied" for p in denied]
    out: dict[str, Any] = {"pattern": pattern, "total": total}
    if count_only:
        out["counts"] = counts[:limit]
        out["truncated"] = len(counts) > limit
    else:
        out["matches"] = matches
        out["truncated"] = total > len(matches)
    if errors:
        out["errors"] = errors[:20]
    return out


@filesystem.tool(
    returns=Node,
    says=[
        "find all files named {name} under {path}",
        "find directories in {path}",
        "which files in {path} are bigger than {min_size} bytes?",
    ],
)
def find(
    db: Db,
    path: PathRef[Node, DIR] | None = None,
    name: Annotated[str, Field(min_length=1, max_length=200, examples=["*.py", "README*", "*.csv"])]
    | None = None,
    type: Literal["f", "d", "l"] | None = None,
    min_size: Annotated[int, Field(ge=0)] | None = None,
    max_size: Annotated[int, Field(ge=0)] | None = None,
    modified_within_days: Annotated[int, Field(ge=1, le=3650)] | None = None,
    owner: Ref[User] | None = None,
    limit: PageSize = 50,
    offset: Offset = 0,
) -> dict:
    """Search a directory tree (the working directory by default) by name, type, size, age and owner.

    Args:
        path: Where to start.
        name: A shell glob for the entry name, e.g. *.py or report-??.md.
        type: f (files), d (directories) or l (symlinks).
        min_size: At least this many bytes.
        max_size: At most this many bytes.
        modified_within_days: Changed in the last N days.
        owner: Only entries owned by this user name.
        limit: Results per page.
        offset: Results to skip, for paging.
    """
    a = P.actor(db)
    shown = path or "."
    with worded("find: '{path}': {reason}"):
        n = P.resolve(db, a, shown)
    since = (db.now - timedelta(days=modified_within_days)).isoformat() if modified_within_days else None
    kinds = {"f": "file", "d": "dir", "l": "symlink"}
    items, denied = P.walk(db, a, n, _abs(db, n))
    found = _find_matches(items, name, kinds[type] if type else None, min_size, max_size, since, owner)
    page = found[offset : offset + limit]
    out: dict[str, Any] = {
        "entries": [
            {
                "path": P.display(a, p),
                "name": r["name"],
                "type": r["kind"],
                "size": r["size_bytes"],
                "modified": r["mtime"],
            }
            for r, p in page
        ],
        "total": len(found),
        "offset": offset,
        "truncated": offset + len(page) < len(found),
    }
    if denied:
        out["errors"] = [f"find: '{P.display(a, p)}': Permission denied" for p in denied[:20]]
    return out


@filesystem.tool(says=["compare {path_a} and {path_b}", "what changed between {path_a} and {path_b}?"])
def diff(db: Db, path_a: PathRef[Node, TEXT], path_b: PathRef[Node, TEXT]) -> dict:
    """Line differences between two files, as a unified diff.

    Args:
        path_a: The original file.
        path_b: The changed file.
    """
    a = P.actor(db)
    x = _read(db, a, path_a, "diff", text=False)
    y = _read(db, a, path_b, "diff", text=False)
    if x["is_binary"] or y["is_binary"]:
        same = x["content"] == y["content"]
        return {"identical": same, "diff": "" if same else f"Binary files {path_a} and {path_b} differ"}
    lines = list(difflib.unified_diff(_lines(x), _lines(y), fromfile=path_a, tofile=path_b, lineterm=""))
    return {"identical": not lines, **db.clip("\n".join(lines))}


@filesystem.tool(
    says=[
        "sort the lines of {path}",
        "sort {path} by column {field} numerically",
        "sorted unique lines of {path}",
    ]
)
def sort(
    db: Db,
    path: PathRef[Node, CSV],
    reverse: bool = False,
    numeric: bool = False,
    unique: bool = False,
    field: Annotated[int, Field(ge=1, le=50)] | None = None,
    delimiter: Literal[",", ";", "|", "tab", "space"] = ",",
    header: bool = False,
) -> dict:
    """The lines of a text file, sorted (the file itself is not changed).

    Args:
        path: The file.
        reverse: Largest first.
        numeric: Compare as numbers (non-numbers count as 0).
        unique: Drop repeated lines.
        field: Sort by this 1-based column instead of the whole line.
        delimiter: What separates columns when field is given.
        header: Keep the first line (a CSV header) on top.
    """
    n = _read(db, P.actor(db), path, "sort")
    body = _lines(n)
    top, body = (body[:1], body[1:]) if header else ([], body)
    sep = {"tab": "\t", "space": " "}.get(delimiter, delimiter)

    def key(line: str) -> Any:
        value = line
        if field is not None:
            parts = line.split(sep)
            value = parts[field - 1] if field <= len(parts) else ""
        if numeric:
            try:
                return (float(value.strip()), line)
            except ValueError:
                return (0.0, line)
        return (value, line)

    if unique:
        body = list(dict.fromkeys(body))
    body.sort(key=key, reverse=reverse)
    return {"path": path, "lines": len(top) + len(body), **db.clip("\n".join(top + body))}


@filesystem.tool(says=["remove adjacent duplicate lines from {path}", "count repeated lines in {path}"])
def uniq(db: Db, path: PathRef[Node, TEXT], count: bool = False) -> dict:
    """Collapse runs of identical adjacent lines (sort first to catch all duplicates).

    Args:
        path: The file.
        count: Prefix each line with how many times it repeated.
    """
    n = _read(db, P.actor(db), path, "uniq")
    runs: list[list[Any]] = []
    for line in _lines(n):
        if runs and runs[-1][1] == line:
            runs[-1][0] += 1
        else:
            runs.append([1, line])
    text = "\n".join(f"{c:7d} {line}" if count else line for c, line in runs)
    return {"path": path, "lines": len(runs), **db.clip(text)}


@filesystem.tool(says=["what is the md5 checksum of {path}?", "md5sum {path}"])
def md5sum(db: Db, path: PathRef[Node, READABLE]) -> dict:
    """The MD5 checksum of a file's bytes (equal files have equal sums).

    Args:
        path: The file.
    """
    n = _read(db, P.actor(db), path, "md5sum", text=False)
    return {"path": path, "md5": hashlib.md5((n["content"] or "").encode("utf-8")).hexdigest()}
