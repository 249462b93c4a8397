"""``unokit conformance PATH...``: run rule scenarios (files or folders of ``*.json``)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..conformance import Result, run_files, scenario_files
from ..core.errors import UnoError

NAME = "conformance"
HELP = "run rule conformance scenarios (JSON files or folders of them)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the command's arguments."""
    parser.add_argument("paths", nargs="+", metavar="PATH", help="scenario files or folders")
    parser.add_argument("--json", action="store_true", help="write the results as JSON to stdout")
    parser.add_argument("--strict", action="store_true",
                        help="a step with \"error\": true whose action is not even valid notation "
                             "fails as malformed (catches misspelt actions); by default the engine's "
                             "refusal to read it counts as refused")


def run(args: argparse.Namespace) -> int:
    """Run every scenario; exit 0 only if all pass."""
    missing = [p for p in args.paths if not Path(p).exists()]
    if missing:
        raise UnoError(f"no such file or folder: {', '.join(missing)}")
    files = scenario_files(args.paths)
    if not files:
        raise UnoError(f"no scenario files (*.json) found in {' '.join(args.paths)}")

    def show(result: Result) -> None:
        if not args.json:
            print(result.line(), flush=True)

    results = run_files(files, show, strict=args.strict)
    passed = sum(r.passed for r in results)
    failed = len(results) - passed
    if args.json:
        json.dump({"results": [r.as_dict() for r in results], "passed": passed, "failed": failed},
                  sys.stdout, indent=2)
        print()
    else:
        print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1
