"""A test passes for every seed: in CI the property tests run once more, with a random seed.

CI derandomizes hypothesis (with ``CI=true`` it loads its ``ci`` profile: the same examples
every run), so a property that fails for some seeds could pass there for ever. When this
run's property tests were derandomized, this test runs them again, in a child
``python3 -m pytest`` with the CI variables unset and ``--hypothesis-seed`` drawn at random,
under the ``random-pass`` profile (tests/conftest.py: no example database). A failure fails
this test and prints the seed and the command that replays it: the same modules, since which
modules are collected changes what hypothesis draws from a seed (``PROPERTY_SEED=N`` gives this
test the seed instead). Outside CI the property tests already draw random examples in the run
itself, so the second pass is skipped. ``.ci/run`` stays the README's ``python3 -m pytest -q``.

The property tests are every test module with an ``@given`` (hypothesis marks those tests
``hypothesis``; tests/test_contract_robustness.py marks its own, whose ``@given`` is inside).
"""

from __future__ import annotations

import os
import random
import re
import subprocess
import sys

import pytest
from hypothesis import settings

from tests.conftest import RANDOM_PASS, ROOT

CI_VARIABLES = (
    "CI", "TF_BUILD", "BUILDKITE", "CIRCLECI", "CIRRUS_CI", "CODEBUILD_BUILD_ID", "GITHUB_ACTIONS", "GITLAB_CI",
    "HEROKU_TEST_RUN_ID", "TEAMCITY_VERSION",
)
"""The variables by which hypothesis (``hypothesis._settings.is_in_ci``) and our tests tell CI."""
ROBUSTNESS_EXAMPLES = "30"
"""Examples per claim of the contract's fuzz tests in the second pass (60 in the first): it keeps the pass near
two minutes on the shared machine; the seed changes every run, so the examples add up over the runs."""


GIVEN = re.compile(r"^[ \t]*@given\(", re.MULTILINE)


def property_modules() -> list[str]:
    """Every test module with a property test, relative to the repository."""
    found = [path for path in (ROOT / "tests").rglob("test_*.py") if GIVEN.search(path.read_text(encoding="utf-8"))]
    return sorted(str(path.relative_to(ROOT)) for path in found)


def replay_command(seed: int) -> list[str]:
    return [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "hypothesis",
            f"--hypothesis-profile={RANDOM_PASS}", f"--hypothesis-seed={seed}", *property_modules()]


def test_the_property_modules_are_found() -> None:
    modules = property_modules()
    assert "tests/test_movetext.py" in modules and "tests/test_contract_robustness.py" in modules
    assert "tests/test_property_seeds.py" not in modules  # this test never runs itself


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_property_tests_pass_with_a_random_seed_too() -> None:
    if not settings.default.derandomize:
        pytest.skip("hypothesis is not derandomized in this run: the property tests already drew random examples")
    seed = int(os.environ.get("PROPERTY_SEED") or random.SystemRandom().randrange(2**32))
    env = {key: value for key, value in os.environ.items() if key not in CI_VARIABLES}
    env["ROBUSTNESS_EXAMPLES"] = ROBUSTNESS_EXAMPLES
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    command = replay_command(seed)
    print(f"property tests, second pass: --hypothesis-seed={seed}")
    proc = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=840)
    replay = " ".join(["env -u CI", f"ROBUSTNESS_EXAMPLES={ROBUSTNESS_EXAMPLES}", "python3", *command[1:]])
    tail = "\n".join((proc.stdout + proc.stderr).splitlines()[-80:])
    assert proc.returncode == 0, (
        f"the property tests fail with --hypothesis-seed={seed} (they passed derandomized). Replay with:\n"
        f"  {replay}\n\n{tail}"
    )
