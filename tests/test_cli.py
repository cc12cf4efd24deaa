"""The command line: real subprocesses, clear errors and exit codes, nothing half-written."""

from __future__ import annotations

import hashlib

from tests.serving import run_cli as run


def test_snapshot_build_prints_the_file_sha256(tmp_path):
    out = tmp_path / "bank.sqlite"
    res = run(
        tmp_path,
        "snapshot",
        "build",
        "--domain",
        "banking",
        "--seed",
        "3",
        "--scale",
        "small",
        "--out",
        str(out),
    )
    assert res.returncode == 0, res.stderr
    assert res.stdout.split()[0] == hashlib.sha256(out.read_bytes()).hexdigest()
    import sqlite3

    assert sqlite3.connect(out).execute("SELECT count(*) FROM accounts").fetchone()[0] > 0


def test_unknown_domain_and_bad_paths_fail_cleanly(tmp_path):
    res = run(tmp_path, "snapshot", "build", "--domain", "atlantis", "--out", str(tmp_path / "x.sqlite"))
    assert res.returncode == 2 and "unknown domain 'atlantis'" in res.stderr and "banking" in res.stderr
    assert "Traceback" not in res.stderr and not (tmp_path / "x.sqlite").exists()
    res = run(
        tmp_path, "snapshot", "build", "--domain", "banking", "--scale", "small", "--out", str(tmp_path)
    )
    assert res.returncode == 2 and "is a directory" in res.stderr
    res = run(
        tmp_path,
        "snapshot",
        "build",
        "--domain",
        "banking",
        "--scale",
        "small",
        "--out",
        "/proc/nope/x.sqlite",
    )
    assert res.returncode == 2 and "cannot write" in res.stderr and "Traceback" not in res.stderr
    res = run(tmp_path, "serve", "--domains", "banking,atlantis")
    assert res.returncode == 2 and "unknown domain" in res.stderr
    res = run(tmp_path, "serve", "--host", "0.0.0.0", "--domains", "banking")
    assert res.returncode == 2 and "--admin-token" in res.stderr
    res = run(tmp_path, "snapshot", "build", "--domain", "banking", "--scale", "huge", "--out", "x")
    assert res.returncode == 2 and "invalid choice" in res.stderr


def test_help_states_every_default_a_command_uses_unasked(tmp_path, monkeypatch):
    """``generate --help`` says it draws 100 banking tasks unless told otherwise; every option of
    every subcommand that has a default shows it."""
    import argparse

    from toolground.cli import build_parser

    monkeypatch.setenv("COLUMNS", "400")  # one line per option: "eval-out" not cut at its hyphen
    parser = build_parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    for name, sub in commands.items():
        text = " ".join(sub.format_help().split())
        for action in sub._actions:
            if (
                action.option_strings
                and action.help
                and action.default not in (None, False, "", argparse.SUPPRESS)
            ):
                assert f"(default: {action.default})" in text, (name, action.dest)
    res = run(tmp_path, "generate", "--help")
    assert res.returncode == 0 and "(default: banking)" in res.stdout and "(default: 100)" in res.stdout
