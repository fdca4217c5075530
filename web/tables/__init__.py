"""Every stored table, on one floor: one module per aggregate, all registered on :class:`web.db.Base`.

A module here imports only :mod:`web.db`, the sibling tables its keys and relationships name, and the domain:
never an area, never a service. Importing one table loads that table and those it names, no more (issue 40:
``check-games``' broker client loaded all thirteen, a fifth of its start-up, to write job rows; it now writes them
through the database's driver, :mod:`web.queue.direct`, and loads no table). Where any table may be written,
read or compared, :mod:`web.tables.every` registers them all (and how each table's rows are read by the audit
trail's check): the app, the worker, the commands' storage, Alembic and :func:`web.audit.verify` import it.
"""
