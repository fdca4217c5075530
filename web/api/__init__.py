"""The JSON API: the rulings' routes (:mod:`web.api.views`), how a route is described (:mod:`web.api.operations`),
the models it takes and gives (:mod:`web.api.schemas`) and the document written from them (:mod:`web.api.openapi`).

The package imports nothing, so the committee's and the appeals' API routes use :mod:`web.api.operations` and
:mod:`web.api.schemas` without loading the rulings' pages (docs/web-app.md, *The JSON API*)."""
