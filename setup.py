"""Builds the compiled kernels through Cython when it can.

* the helpmate kernel (engines/chess/unwinnable/kernel.py); without it the analysis runs the
  same code as plain Python (slower; engines/chess/unwinnable/certificate.py says which one is loaded);
* the checkers endgame-database kernel (engines/checkers/kernel.pyx with egdb.h); without it
  the NumPy builder builds up to 5 pieces and 6 pieces are not built (engines/checkers/compiled.py).

Everything else is in pyproject.toml. Both are optional extensions: without a C compiler
the install still succeeds.
"""

import hashlib
import platform
from pathlib import Path

from setuptools import Extension, setup

KERNEL = Path(__file__).parent / "engines" / "chess" / "unwinnable"


CHECKERS = Path(__file__).parent / "engines" / "checkers"


def kernel_digest() -> str:
    """sha256 of the kernel's source and declarations (certificate.py compares it at import)."""
    return hashlib.sha256((KERNEL / "kernel.py").read_bytes() + (KERNEL / "kernel.pxd").read_bytes()).hexdigest()


def checkers_kernel_digest() -> str:
    """sha256 of the checkers kernel's sources (engines/checkers/compiled.py compares it at import)."""
    return hashlib.sha256((CHECKERS / "kernel.pyx").read_bytes() + (CHECKERS / "egdb.h").read_bytes()).hexdigest()


try:
    from Cython.Build import cythonize
except ImportError:  # no Cython in the build environment: the pure-Python kernel only
    ext_modules = []
else:
    ext_modules = cythonize(
        [
            "engines/chess/unwinnable/kernel.py",
            Extension("engines.checkers.kernel", ["engines/checkers/kernel.pyx"], depends=["engines/checkers/egdb.h"],
                      include_dirs=["engines/checkers"],
                      # the bit count is one instruction on every x86-64 processor since 2008 (else a library call)
                      extra_compile_args=["-mpopcnt"] if platform.machine() in ("x86_64", "AMD64") else []),
        ],
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
    (CHECKERS / "kernel_build.txt").write_text(checkers_kernel_digest() + "\n", encoding="utf-8")

setup(ext_modules=ext_modules)
