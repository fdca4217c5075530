"""Builds the compiled modules through Cython when it can:

* the helpmate kernel (engines/chess/unwinnable/kernel.py); without it the analysis runs the
  same code as plain Python (slower; engines/chess/unwinnable/certificate.py says which one is loaded);
* the bulk record reader (adjudicator/chess/bulk/scan.py); without it every game is read by the
  lenient reader (the same output, slower; adjudicator/chess/bulk/__init__.py says which one is loaded);
* the checkers endgame-database kernel (engines/checkers/kernel.pyx with egdb.h); without it
  the NumPy builder builds up to 5 pieces and 6 pieces are not built (engines/checkers/compiled.py).

Everything else is in pyproject.toml. All are optional extensions: without a C compiler
the install still succeeds.
"""

import functools
import hashlib
import platform
import zlib
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent
COMPILED = {
    # source: the file setup.py writes its CRC-32 to (the loader compares it at import)
    HERE / "engines" / "chess" / "unwinnable" / "kernel.py": "kernel_build.txt",
    HERE / "adjudicator" / "chess" / "bulk" / "scan.py": "scan_build.txt",
}
CHECKERS = HERE / "engines" / "checkers"


def digest(source: Path) -> str:
    """The CRC-32 of a compiled module's source and declarations, in hex (its loader compares it at import: a
    stale build is found without loading OpenSSL's hashes into every command's start)."""
    return f"{zlib.crc32(source.read_bytes() + source.with_suffix('.pxd').read_bytes()):08x}"


def checkers_kernel_digest() -> str:
    """sha256 of the checkers kernel's sources (engines/checkers/compiled.py compares it at import)."""
    return hashlib.sha256((CHECKERS / "kernel.pyx").read_bytes() + (CHECKERS / "egdb.h").read_bytes()).hexdigest()


try:
    from Cython.Build import cythonize
except ImportError:  # no Cython in the build environment: the pure-Python modules only
    ext_modules = []
else:
    ext_modules = cythonize(
        [
            *(str(source.relative_to(HERE)) for source in COMPILED),
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
        if extension.name == "adjudicator.chess.bulk.scan":
            # Cython's read of a character of a str is an inline function the compiler kept out of line here (a
            # call, a readiness test and a kind switch per character: 14% of the reader's time); forced inline,
            # the reader is about 10% faster (bench/check_games.py). GCC and Clang both take the attribute.
            extension.extra_compile_args = ["-DCYTHON_INLINE=inline __attribute__((always_inline))"]
        extension.optional = True  # a failed C build leaves the pure-Python module (or none, for checkers)


def _module(source: Path) -> str:
    return source.relative_to(HERE).with_suffix("").as_posix().replace("/", ".")


STAMPS = {
    # the compiled module: its stamp (beside its source) and the digest of the source it is built from; the loader
    # uses a compiled module only when its stamp is the digest of the source now beside it
    **{_module(source): ((source.parent / record).relative_to(HERE).as_posix(), functools.partial(digest, source))
       for source, record in COMPILED.items()},
    "engines.checkers.kernel": ("engines/checkers/kernel_build.txt", checkers_kernel_digest),
}


class StampedBuild(build_ext):
    """Writes a compiled module's stamp once it is built, and only then: a build that fails (an optional
    extension: the install goes on) leaves no stamp, so a module compiled from an older source, left in the
    tree, is not taken for the new one (its loader warns and runs the source as plain Python)."""

    def build_extension(self, ext: Extension) -> None:
        stamp, made = STAMPS[ext.name]
        places = [HERE / stamp] + ([] if self.inplace else [Path(self.build_lib) / stamp])
        for place in places:
            place.unlink(missing_ok=True)
        super().build_extension(ext)
        for place in places:
            if place.parent.is_dir():
                place.write_text(made() + "\n", encoding="utf-8")


setup(ext_modules=ext_modules, cmdclass={"build_ext": StampedBuild})
