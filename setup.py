"""Builds the compiled modules through Cython when it can: the helpmate kernel
(engines/chess/unwinnable/kernel.py) and the bulk record reader (adjudicator/chess/bulk/scan.py).

Everything else is in pyproject.toml. Both are optional extensions: without a C compiler
the install still succeeds and the same code runs as plain Python (slower;
engines/chess/unwinnable/certificate.py and adjudicator/chess/bulk/__init__.py say which one
is loaded).
"""

import hashlib
from pathlib import Path

from setuptools import setup

HERE = Path(__file__).parent
COMPILED = {
    # source: the file setup.py writes its sha256 to (the loader compares it at import)
    HERE / "engines" / "chess" / "unwinnable" / "kernel.py": "kernel_build.txt",
    HERE / "adjudicator" / "chess" / "bulk" / "scan.py": "scan_build.txt",
}


def digest(source: Path) -> str:
    """sha256 of a compiled module's source and declarations (its loader compares it at import)."""
    return hashlib.sha256(source.read_bytes() + source.with_suffix(".pxd").read_bytes()).hexdigest()


try:
    from Cython.Build import cythonize
except ImportError:  # no Cython in the build environment: the pure-Python kernel only
    ext_modules = []
else:
    ext_modules = cythonize(
        [str(source.relative_to(HERE)) for source in COMPILED],
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    )
    for extension in ext_modules:
        extension.optional = True  # a failed C build leaves the pure-Python kernel
    # the source each extension is built from: a compiled module older than its source is not used
    for source, record in COMPILED.items():
        (source.parent / record).write_text(digest(source) + "\n", encoding="utf-8")

setup(ext_modules=ext_modules)
