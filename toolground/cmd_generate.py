"""``toolground generate``: validated, state-grounded tool-use tasks written as a dataset folder.

Everything that can be wrong with the request (unknown domain, ``--n 0``, an output path that
cannot be written, an LLM endpoint that does not answer) is reported before any work starts, and
files are only written, atomically, once generation has finished: an interrupted or failed run
leaves no half-written file behind.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from toolground.cli import UsageError
from toolground.extras import require

PARQUET_FORMATS = {"parquet", "hf"}  # written as parquet files, by pyarrow (the export extra)

if TYPE_CHECKING:
    from collections.abc import Iterable

    from querygen.generate import GenConfig


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("generate", help="generate validated, state-grounded tool-use tasks")
    p.add_argument("--domains", default="banking", help="comma-separated domains, or 'all'")
    p.add_argument("--n", type=int, default=100, help="number of tasks to keep")
    p.add_argument("--seed", type=int, default=0, help="generation seed (same arguments, same bytes)")
    p.add_argument("--out", type=Path, required=True, help="output directory")
    p.add_argument(
        "--format",
        default="jsonl",
        help="jsonl, parquet, hf, chat (SFT view, object arguments), turns (one example per user turn), "
        "or a comma list of them",
    )
    p.add_argument(
        "--harness",
        default="",
        help="also write sft-<name>.jsonl per tool-calling protocol: openai, hermes, react (comma list)",
    )
    p.add_argument("--scale", default="medium", help="snapshot scale: small, medium or large")
    p.add_argument("--snapshot-seed", type=int, default=0, help="seed of the worlds the tasks live in")
    p.add_argument(
        "--workers",
        type=int,
        default=0,
        help="worker processes; 0 = 2 for --n >= 1000 on 2+ cores (same output)",
    )
    p.add_argument("--distractors", type=float, default=0.4, help="share of tasks offered 3-8 foreign tools")
    p.add_argument("--strip-enums", type=float, default=0.3, help="share of tasks with enum lists removed")
    p.add_argument("--irrelevance", type=float, default=0.05, help="share of out-of-scope (abstain) tasks")
    p.add_argument(
        "--missing-function", type=float, default=0.10, help="share of tasks with a needed tool hidden"
    )
    p.add_argument(
        "--sweep-rate",
        type=float,
        default=0.0,
        help="share of attempts drafted through each tool in turn: a flatter spread of tools "
        "for more CPU (0.25: ~20%% more); every tool is called at any rate",
    )
    p.add_argument(
        "--replay", choices=("sandbox", "fresh"), default="sandbox", help="where the replay gate runs"
    )
    p.add_argument(
        "--llm-url", help="OpenAI-compatible endpoint for optional paraphrase, e.g. http://host:8000/v1"
    )
    p.add_argument("--llm-model", help="model name for --llm-url")
    p.add_argument("--llm-timeout", type=float, default=30.0)
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def _config(args: argparse.Namespace) -> tuple[GenConfig, list[str]]:
    from querygen.generate import GenConfig
    from querygen.knobs import KnobRates
    from querygen.out.export import FORMATS
    from servers.registry import UnknownDomain, parse_domains

    if args.n < 1:
        raise UsageError(f"--n must be at least 1, got {args.n}")
    formats = [f.strip() for f in args.format.split(",") if f.strip()]
    bad = [f for f in formats if f not in FORMATS]
    if bad or not formats:
        raise UsageError(
            f"unknown --format {','.join(bad) or args.format!r}; choose from {', '.join(FORMATS)}"
        )
    for fmt in PARQUET_FORMATS.intersection(formats):
        require("pyarrow", f"--format {fmt}")
    if bool(args.llm_url) != bool(args.llm_model):
        raise UsageError("--llm-url and --llm-model go together")
    if args.workers < 0:
        raise UsageError(f"--workers must be 0 (auto) or more, got {args.workers}")
    try:
        domains = tuple(d.name for d in parse_domains(args.domains))
    except UnknownDomain as exc:
        raise UsageError(str(exc)) from None
    rates = KnobRates(
        distractors=args.distractors,
        strip_enums=args.strip_enums,
        irrelevance=args.irrelevance,
        missing_function=args.missing_function,
    )
    cfg = GenConfig(
        domains=domains, n=args.n, seed=args.seed, snapshot_seed=args.snapshot_seed, scale=args.scale,
        rates=rates, replay=args.replay, sweep_rate=args.sweep_rate,
    )  # fmt: skip
    try:
        cfg.check()
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return cfg, formats


def _harnesses(args: argparse.Namespace) -> list[str]:
    """The --harness names, checked before any work starts (an unknown one is a usage error)."""
    from contract.harnesses import HARNESSES

    names = list(dict.fromkeys(h.strip() for h in args.harness.split(",") if h.strip()))
    bad = [h for h in names if h not in HARNESSES]
    if bad:
        raise UsageError(f"unknown --harness {','.join(bad)}; choose from {', '.join(HARNESSES)}")
    return names


def run(args: argparse.Namespace) -> int:
    from querygen.out.export import probe_writable

    cfg, formats = _config(args)
    harnesses = _harnesses(args)
    try:
        created = probe_writable(args.out)
    except OSError as exc:
        raise UsageError(f"cannot write to --out {args.out}: {exc.strerror or exc}") from None
    try:
        return _generate(args, cfg, formats, harnesses)
    except BaseException:
        if created and args.out.is_dir() and not any(args.out.iterdir()):
            shutil.rmtree(args.out, ignore_errors=True)
        raise


def _generate(args: argparse.Namespace, cfg: GenConfig, formats: list[str], harnesses: list[str]) -> int:
    from contract.harnesses import get_harness, sft_lines
    from querygen.generate import Generator
    from querygen.out.console import print_summary, progress_bar
    from querygen.out.export import write_dataset
    from querygen.text.paraphrase import ParaphraseError, Paraphraser, paraphrase_tasks

    para = None
    if args.llm_url:
        para = Paraphraser(args.llm_url, args.llm_model, args.llm_timeout, os.environ.get("OPENAI_API_KEY"))
        try:
            para.ping()
        except ParaphraseError as exc:
            raise UsageError(str(exc)) from None
    started = time.perf_counter()
    gen = Generator(cfg)
    startup = time.perf_counter() - started
    workers = args.workers or (min(2, os.cpu_count() or 1) if cfg.n >= 1000 else 1)
    with progress_bar(cfg.n, quiet=args.quiet) as tick:
        tasks, stats = gen.run(tick, workers=workers)
    elapsed = time.perf_counter() - started
    para_counts = None
    if para is not None:
        para_counts = dict(paraphrase_tasks(tasks, para, gen.validator.grounding))
        from querygen.generate import task_id

        for t in tasks:
            t.id = task_id(t)
    summary = {
        "config": cfg.as_dict(),
        "formats": formats,
        "harnesses": harnesses,
        "stats": stats.as_dict(),
        "shortfall": max(0, cfg.n - len(tasks)),
        "graphs": {name: g.stats() for name, g in gen.graphs().items()},
        "paraphrase": para_counts,
    }
    extra: dict[str, bytes | Iterable[bytes]] = {
        "stats.json": (json.dumps(summary, indent=2) + "\n").encode()
    }
    for name in harnesses:
        extra[f"sft-{name}.jsonl"] = sft_lines(tasks, get_harness(name))
    for name, graph in gen.graphs().items():
        extra[f"graphs/{name}.json"] = graph.to_json_text().encode()
        extra[f"graphs/{name}.dot"] = graph.to_dot().encode()
    try:
        written = write_dataset(args.out, tasks, formats, extra, cache=gen.cache)
    except OSError as exc:
        raise UsageError(f"cannot write to --out {args.out}: {exc.strerror or exc}") from None
    print_summary(summary, elapsed, written, args.out, startup)
    if len(tasks) < cfg.n:
        print(
            f"warning: kept {len(tasks)} of {cfg.n} tasks within the attempt budget "
            "(the domains may not hold that many distinct tasks; see stats.json)",
            file=sys.stderr,
        )
    return 0
