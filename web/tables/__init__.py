"""Every stored table, on one floor: one module per aggregate, all registered on :class:`web.db.Base`.

A module here imports only :mod:`web.db`, the sibling tables its keys and relationships name, and the domain:
never an area, never a service. Importing one table loads that table and those it names, no more: the broker's
client in ``check-games`` writes and reads job rows with the ``jobs`` table alone (issue 40: the other twelve
cost it a fifth of its start-up). Where any table may be written, read or compared, :mod:`web.tables.every`
registers them all (and how each table's rows are read by the audit trail's check): the app, the worker, the
commands' storage, Alembic and :func:`web.audit.verify` import it.
"""
