"""Builds the compiled helpmate kernel (engines/chess/unwinnable/kernel.py through Cython) when it can.

Everything else is in pyproject.toml. The kernel is an optional extension: without a C
compiler the install still succeeds and the analysis runs the same code as plain Python
(slower; engines/chess/unwinnable/certificate.py says which one is loaded).
"""

import hashlib
from pathlib import Path

from setuptools import setup

KERNEL = Path(__file__).parent / "engines" / "chess" / "unwinnable"


def kernel_digest() -> str:
    """sha256 of the kernel's source and declarations (certificate.py compares it at import)."""
    return hashlib.sha256((KERNEL / "kernel.py").read_bytes() + (KERNEL / "kernel.pxd").read_bytes()).hexdigest()


try:
    from Cython.Build import cythonize
except ImportError:  # no Cython in the build environment: the pure-Python kernel only
    ext_modules = []
else:
    ext_modules = cythonize(
        ["engines/chess/unwinnable/kernel.py"],
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
    # the source the extension is built from: a compiled kernel older than its source is not used
    (KERNEL / "kernel_build.txt").write_text(kernel_digest() + "\n", encoding="utf-8")

setup(ext_modules=ext_modules)
