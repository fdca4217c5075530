"""Builds the compiled helpmate kernel (engines/unwinnable/kernel.py through Cython) when it can.

Everything else is in pyproject.toml. The kernel is an optional extension: without a C
compiler the install still succeeds and the analysis runs the same code as plain Python
(slower; engines/unwinnable/certificate.py says which one is loaded).
"""

from setuptools import setup

try:
    from Cython.Build import cythonize
except ImportError:  # no Cython in the build environment: the pure-Python kernel only
    ext_modules = []
else:
    ext_modules = cythonize(
        ["engines/unwinnable/kernel.py"],
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

setup(ext_modules=ext_modules)
