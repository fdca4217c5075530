"""``adjudicator rulesets ...``: an organiser's rulesets checked, and the option reference.

    adjudicator rulesets check [FILE]     # every problem of FILE's [rulesets.*] (default: the configuration)
    adjudicator rulesets reference        # the option reference, Markdown (docs/rulesets.md)

``check`` prints ``{"rulesets": [ids], "problems": []}`` and exits 0 when every ruleset
is sound; otherwise it exits 2 with the contract's ``{"error": ...}`` (the first problem's
key as its ``field``) whose ``problems`` list every problem, each as an error of its own.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from typing import Any

from adjudicator.rulesets import Problem, check_rulesets, invalid_ruleset
from web.cli import emit, read_input
from web.config import ConfigError, config_path
from web.settings import reference


def register(sub: Any) -> None:
    parser = sub.add_parser("rulesets", help="check an organiser's rulesets; print the option reference")
    actions = parser.add_subparsers(dest="action", required=True, parser_class=type(parser))
    check = actions.add_parser("check", help="list every problem of a configuration file's rulesets")
    check.add_argument("file", nargs="?", help="a configuration file (TOML; - for standard input); "
                       "default: the configuration in use (ADJUDICATOR_CONFIG or config.toml)")
    check.set_defaults(func=run_check)
    reference = actions.add_parser("reference", help="the option reference as Markdown (docs/rulesets.md)")
    reference.set_defaults(func=run_reference)


def error_body(source: str, problems: list[Problem]) -> dict[str, Any]:
    """The contract's error (the first problem's key as its field), with every problem as an error of its own."""
    count = f"{len(problems)} problem{'s' if len(problems) != 1 else ''}"
    message = f"{count} in the rulesets of {source}: " + "; ".join(str(p) for p in problems)
    body = invalid_ruleset(problems[0].key, message).to_json()
    body["error"]["problems"] = [invalid_ruleset(p.key, str(p)).to_json()["error"] for p in problems]
    return body


def run_check(args: argparse.Namespace) -> int:
    source = args.file or str(config_path())
    text = read_input(source, "file")
    try:
        config = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{source} is not valid TOML: {exc}") from None
    rulesets, problems = check_rulesets(config)
    if problems:
        body = error_body(source, problems)
        emit(body)
        sys.stderr.write(f"adjudicator: {body['error']['message']}\n")
        return 2
    emit({"rulesets": list(rulesets), "problems": []})
    return 0


def run_reference(args: argparse.Namespace) -> int:
    sys.stdout.write(reference())
    return 0
