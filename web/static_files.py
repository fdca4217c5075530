"""Static files: long-lived caching where the URL carries a version, and gzip.

* Vendored packages sit under ``static/vendor/<package>-<version>/``: the version is in the
  path, so they are cached for a year (``immutable``).
* The app's own files (``app.css``, ``board-editor.js``, ...) get ``?v=<digest>`` from
  ``url_for('static', ...)``, the digest of all of them together (a module importing a sibling
  passes its own ``?v=`` on). A request with the current digest is cached for a year; one
  without it (or with an old one) is revalidated every time (``no-cache`` and an ETag).
  The digest is computed once, when the app starts (as WhiteNoise does: the files of an
  installed app change with a new release, and a release restarts the server); in debug mode
  (``FLASK_DEBUG``) the folder is watched and the digest follows every change.
* Text files (CSS, JavaScript, SVG, JSON, maps) are sent gzipped to a browser that accepts it,
  compressed once per file and kept in memory. waitress compresses nothing, and only static
  files are compressed: the pages carry CSRF tokens, which compression would expose (BREACH).
"""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from flask import Flask, abort, request
from werkzeug.security import safe_join
from werkzeug.wrappers import Response

YEAR = 365 * 24 * 3600
LONG_LIVED = f"public, max-age={YEAR}, immutable"
REVALIDATE = "no-cache"
VENDOR = "vendor/"
COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml")


@dataclass(frozen=True)
class _File:
    """One file's bytes, gzipped bytes (None: not worth it) and ETag, for one (mtime, size)."""

    stamp: tuple[int, int]
    mimetype: str
    data: bytes
    gzipped: bytes | None
    etag: str


class StaticFiles:
    """The static folder as served (see the module's docstring)."""

    def __init__(self, folder: Path, watch: bool = False) -> None:
        self.folder = folder
        self.watch = watch
        """Whether :meth:`version` looks at the folder again on every call (debug mode), or once."""
        self._files: dict[str, _File] = {}
        self._lock = threading.Lock()
        self._version: tuple[tuple[tuple[str, int, int], ...], str] | None = None

    def version(self) -> str:
        """The digest of the app's own static files (vendor/ aside): computed once, or (watching)
        again whenever one of them changes."""
        cached = self._version
        if cached is not None and not self.watch:
            return cached[1]
        stamps = tuple(sorted(self._own_files()))
        if cached is not None and cached[0] == stamps:
            return cached[1]
        digest = hashlib.sha256()
        for name, _, _ in stamps:
            digest.update(name.encode() + b"\0" + (self.folder / name).read_bytes() + b"\0")
        full = digest.hexdigest()
        length = 16
        while full[:length].isdigit():  # an all-digit query value reads as a number (web.inputs refuses big ones)
            length += 1
        version = full[:length]
        self._version = (stamps, version)
        return version

    def _own_files(self) -> list[tuple[str, int, int]]:
        found = []
        for root, folders, names in os.walk(self.folder):
            here = Path(root)
            if here == self.folder:
                folders[:] = [f for f in folders if f != VENDOR.rstrip("/")]
            for name in names:
                stat = (here / name).stat()
                found.append(((here / name).relative_to(self.folder).as_posix(), stat.st_mtime_ns, stat.st_size))
        return found

    def file(self, filename: str) -> _File | None:
        joined = safe_join(str(self.folder), filename)
        if joined is None:
            return None
        path = Path(joined)
        try:
            stat = path.stat()
        except OSError:
            return None
        if not path.is_file():
            return None
        stamp = (stat.st_mtime_ns, stat.st_size)
        known = self._files.get(filename)
        if known is not None and known.stamp == stamp:
            return known
        data = path.read_bytes()
        mimetype = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if path.suffix in (".js", ".mjs"):
            mimetype = "text/javascript"
        gzipped = None
        if mimetype.startswith(COMPRESSIBLE) and len(data) > 512:
            packed = gzip.compress(data, compresslevel=9, mtime=0)
            gzipped = packed if len(packed) < len(data) * 0.9 else None
        entry = _File(stamp, mimetype, data, gzipped, hashlib.sha256(data).hexdigest()[:32])
        with self._lock:
            self._files[filename] = entry
        return entry

    def response(self, filename: str) -> Response:
        entry = self.file(filename)
        if entry is None:
            abort(404, "There is no such file.")
        use_gzip = entry.gzipped is not None and request.accept_encodings["gzip"] > 0
        body = entry.gzipped if use_gzip and entry.gzipped is not None else entry.data
        response = Response(body, mimetype=entry.mimetype)
        if entry.gzipped is not None:
            response.vary.add("Accept-Encoding")
        if use_gzip:
            response.headers["Content-Encoding"] = "gzip"
        response.set_etag(entry.etag + ("-gz" if use_gzip else ""))
        is_versioned = filename.startswith(VENDOR) or request.args.get("v") == self.version()
        response.headers["Cache-Control"] = LONG_LIVED if is_versioned else REVALIDATE
        return response.make_conditional(request)


def init_app(app: Flask) -> None:
    """Serve ``/static/`` through :class:`StaticFiles` and version the own files' URLs."""
    files = StaticFiles(Path(app.static_folder or "static"), watch=app.debug)
    app.extensions["static_files"] = files
    app.view_functions["static"] = files.response

    prefix = f"{app.static_url_path or '/static'}/"
    inner = app.wsgi_app

    def without_cookie_headers(environ: dict[str, Any], start_response: Any) -> Any:
        """A static file varies by Accept-Encoding only and sets no cookie (Flask-Login's hook reads
        the session on every response, which would add ``Vary: Cookie`` and defeat the cache)."""
        if not str(environ.get("PATH_INFO", "")).startswith(prefix):
            return inner(environ, start_response)

        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            varies = any(k.lower() == "vary" and "accept-encoding" in v.lower() for k, v in headers)
            kept = [(k, v) for k, v in headers if k.lower() not in ("vary", "set-cookie")]
            return start_response(status, [*kept, ("Vary", "Accept-Encoding")] if varies else kept, exc_info)

        return inner(environ, start)

    app.wsgi_app = without_cookie_headers  # type: ignore[method-assign]

    @app.url_defaults
    def _version(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and not str(values.get("filename", "")).startswith(VENDOR):
            values.setdefault("v", files.version())
