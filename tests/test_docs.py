"""The README is a tour and docs/ holds the reference (issue 38, item 5): what they show must work.

- every command shown in README.md or docs/*.md parses: ``adjudicator ...`` (or ``python3 -m adjudicator
  ...``) is accepted by the command line's own parser (web/cli.py), subcommand and every flag shown;
  ``python3 bench/X.py --flag`` names a bench script that defines that flag; ``python3 -c "..."`` compiles;
  a script or test file named (``bash .ci/install``, ``python3 -m pytest tests/x.py``) exists;
- every relative link resolves to a file, and its ``#anchor`` to a heading of that file;
- the README stays a tour: under 250 lines, and its two set-up commands are the ones ``.ci/run`` runs.
"""

from __future__ import annotations

import argparse
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from web.cli import UsageError, build_parser

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "web").glob("README.md"))]

SERVE = "bash .ci/install && python3 -m adjudicator serve"
TEST = "bash .ci/install && python3 -m pytest -q"

PLACEHOLDERS = {"N": "2", "N]": "2]"}
"""Placeholders a parser checks the type of (``--workers N``), given a value of that type."""

PROGRAMS = ("adjudicator ", "python3 -m adjudicator ", "python -m adjudicator ", "python3 bench/", "python bench/",
            "python3 -c ", "python3 -m pytest", "bash ")


@dataclass(frozen=True)
class Shown:
    """One command as a page shows it."""

    page: str
    line: int
    text: str
    inline: bool = False

    def __str__(self) -> str:
        return f"{self.page}:{self.line}: {self.text}"


def prose(text: str) -> str:
    """The page without its code blocks (fenced, or indented four spaces after a blank line), lines kept."""
    out: list[str] = []
    fenced = in_block = False
    previous_blank = True
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            out.append("")
            continue
        indented = line.startswith("    ") and line.strip() != ""
        in_block = indented and (previous_blank or in_block)
        out.append("" if fenced or in_block else line)
        previous_blank = line.strip() == ""
    return "\n".join(out)


def code_lines(text: str) -> list[tuple[int, str]]:
    """The lines of the page's code blocks, with their line numbers; a line ending in ``\\`` goes on."""
    kept = prose(text).split("\n")
    lines: list[tuple[int, str]] = []
    pending = ""
    start = 0
    for number, (line, left) in enumerate(zip(text.split("\n"), kept, strict=True), start=1):
        if left or not line.strip() or line.lstrip().startswith("```"):
            continue
        if not pending:
            start = number
        pending += line.strip()
        if pending.endswith("\\"):
            pending = pending[:-1] + " "
            continue
        lines.append((start, pending))
        pending = ""
    return lines


def shown_commands() -> list[Shown]:
    """Every command shown on a page: a code block's line, or an inline code span, that starts with a program
    of this project."""
    found: list[Shown] = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        name = page.relative_to(ROOT).as_posix()
        for number, line in code_lines(text):
            words = line
            while re.match(r"[A-Z_0-9]+=\S*\s", words):  # an environment variable set for the command
                words = words.split(None, 1)[1]
            if words.startswith(PROGRAMS):
                found.append(Shown(name, number, words))
        body = prose(text)
        for match in re.finditer(r"`([^`]+)`", body):
            span = " ".join(match.group(1).split())
            while re.match(r"[A-Z_0-9]+=\S*\s", span):
                span = span.split(None, 1)[1]
            if span.startswith(PROGRAMS):
                found.append(Shown(name, body.count("\n", 0, match.start()) + 1, span, inline=True))
    return found


def words_of(command: str) -> list[str]:
    """The words of a command: comments, redirections, ``&&`` chains after the first and brackets removed."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:  # an apostrophe in a comment
        words = shlex.split(command.split("  #")[0], comments=True)
    for stop in ("&&", ">", "<", "2>"):
        if stop in words:
            words = words[: words.index(stop)]
    return [w.strip("[]") for w in words if w.strip("[]")]


def subparsers_of(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def option_strings(parser: argparse.ArgumentParser) -> set[str]:
    return {option for action in parser._actions for option in action.option_strings}


def check_adjudicator(words: list[str], shown: Shown) -> None:
    """The subcommand exists, every flag shown is one of its flags, and the whole line parses where it
    holds no alternatives (``a | b``) or elisions (``...``)."""
    parser = build_parser(words)
    path: list[str] = []
    for word in words:
        if word.startswith("-"):
            continue
        below = subparsers_of(parser)
        if not below:
            break
        assert word in below, f"{shown}: no subcommand {' '.join([*path, word])!r}"
        parser = below[word]
        path.append(word)
    if not path and words and all(w in ("-h", "--help") for w in words):
        return  # the program's own help
    assert path, f"{shown}: no subcommand"
    known = option_strings(parser)
    for word in words:
        flag = word.split("=", 1)[0]
        if flag.startswith("-") and flag != "-" and flag not in ("|",):
            assert flag in known, f"{shown}: {' '.join(path)} has no flag {flag} (it has {sorted(known)})"
    if len(words) == len(path) or (shown.inline and words[-1].startswith("-")):
        return  # a command or a flag named in a sentence ("`adjudicator replay` streams", "`... set --broadcast`")
    if "|" in words or "..." in words or any(w.endswith("|") or w.startswith("|") for w in words):
        return
    argv = [PLACEHOLDERS.get(w, w) for w in words]
    try:
        build_parser(argv).parse_args(argv)
    except UsageError as exc:
        pytest.fail(f"{shown}: the command line refuses it: {exc}")


def check_bench(words: list[str], shown: Shown) -> None:
    """The bench script exists and defines every flag shown (in itself or a bench module it imports)."""
    script = ROOT / words[1]
    assert script.is_file(), f"{shown}: no script {words[1]}"
    source = script.read_text(encoding="utf-8")
    imported = set(re.findall(r"^\s*(?:from|import)\s+(?:bench\.)?(\w+)", source, re.M))
    for stem in imported:
        module = ROOT / "bench" / f"{stem}.py"
        if module.is_file():
            source += module.read_text(encoding="utf-8")
    for word in words[2:]:
        flag = word.split("=", 1)[0]
        if flag.startswith("--"):
            assert f'"{flag}"' in source, f"{shown}: {words[1]} defines no flag {flag}"


def check(shown: Shown) -> None:
    command = shown.text
    if command.startswith("python3 -c "):
        code = shlex.split(command)[2]
        compile(code, str(shown), "exec")
        return
    words = words_of(command)
    if words[:3] in (["python3", "-m", "adjudicator"], ["python", "-m", "adjudicator"]):
        check_adjudicator(words[3:], shown)
    elif words[0] == "adjudicator":
        check_adjudicator(words[1:], shown)
    elif len(words) > 1 and words[1].startswith("bench/"):
        check_bench(words, shown)
    else:  # bash FILE, python3 -m pytest [FILE...]: the files named exist
        for word in words[1:]:
            if re.fullmatch(r"[\w./-]+\.(py|sh)|\.ci/\w+", word):
                assert (ROOT / word.split("::")[0]).exists(), f"{shown}: no file {word}"


COMMANDS = shown_commands()


def test_the_pages_show_commands() -> None:
    """The scan finds the commands (a scan that finds none would pass every page)."""
    shown = {c.text for c in COMMANDS}
    assert SERVE in shown and TEST in shown
    assert len(COMMANDS) > 60
    assert {c.page for c in COMMANDS} >= {"README.md", "docs/command-line.md", "docs/roles.md", "docs/collections.md"}


@pytest.mark.parametrize("shown", COMMANDS, ids=str)
def test_every_command_shown_parses(shown: Shown) -> None:
    check(shown)


def test_a_wrong_command_fails_the_check() -> None:
    """The check refuses what the command line refuses: an unknown flag, subcommand or choice."""
    for bad in ("adjudicator check-games x.pgn --wrokers 2", "adjudicator userz list",
                "python3 -m adjudicator users add Mo --role referee", "python3 bench/web.py --clientz 3"):
        with pytest.raises((AssertionError, pytest.fail.Exception)):
            check(Shown("test", 0, bad))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation but ``-`` and ``_`` dropped, spaces to ``-``."""
    text = re.sub(r"[`*]", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    seen: dict[str, int] = {}
    out: set[str] = set()
    for line in prose(page.read_text(encoding="utf-8")).split("\n"):
        match = re.match(r"#{1,6}\s+(.*)", line)
        if match:
            base = slug(match.group(1))
            count = seen.get(base, 0)
            out.add(base if count == 0 else f"{base}-{count}")
            seen[base] = count + 1
    return out


def links(page: Path) -> list[tuple[int, str]]:
    """The relative links of a page (outside code), with their line numbers."""
    body = re.sub(r"`[^`]+`", lambda m: re.sub(r"[^\n]", " ", m.group(0)), prose(page.read_text(encoding="utf-8")))
    found = []
    for match in re.finditer(r"\]\(([^)\s]+)\)", body):
        target = match.group(1)
        if not re.match(r"[a-z]+:", target):
            found.append((body.count("\n", 0, match.start()) + 1, target))
    return found


LINKS = [(page, line, target) for page in PAGES for line, target in links(page)]


def test_the_pages_link_each_other() -> None:
    assert len(LINKS) > 40
    readme = {target for page, _, target in LINKS if page.name == "README.md"}
    for name in ("setup", "command-line", "web-app", "roles", "case-fields", "reading-records", "rulesets",
                 "collections", "queue", "security", "checkers-proofs"):
        assert f"docs/{name}.md" in readme, f"the README does not link docs/{name}.md"


def test_the_readme_links_every_docs_page() -> None:
    """A page nobody can reach from the tour is lost: every docs/*.md is linked from the README."""
    readme = {target.partition("#")[0] for page, _, target in LINKS if page.name == "README.md" and page.parent == ROOT}
    unlinked = [p.name for p in sorted((ROOT / "docs").glob("*.md")) if f"docs/{p.name}" not in readme]
    assert not unlinked, f"README.md links no {unlinked}"


@pytest.mark.parametrize(("page", "line", "target"), LINKS,
                         ids=[f"{p.relative_to(ROOT)}:{n}:{t}" for p, n, t in LINKS])
def test_every_link_resolves(page: Path, line: int, target: str) -> None:
    path, _, anchor = target.partition("#")
    file = (page.parent / path).resolve() if path else page
    assert file.exists(), f"{page.relative_to(ROOT)}:{line}: {target} names no file"
    if anchor and file.suffix == ".md":
        assert anchor in anchors(file), f"{page.relative_to(ROOT)}:{line}: {target}: no heading #{anchor}"


def test_the_readme_is_a_tour() -> None:
    """Under 250 lines; the two set-up commands as they always were, and ``.ci/run`` runs the second."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.split("\n")) < 250
    lines = [line.strip() for line in readme.split("\n")]
    assert SERVE in lines and TEST in lines
    ci_run = [line.strip() for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").split("\n")]
    commands = [line for line in ci_run if line and not line.startswith("#") and not line.startswith(("set ", "cd "))]
    assert commands == [TEST]
