"""Events and access (issue 11): the event a request acts in, and who is asking.

Who is asking in :mod:`web.events.actors`, the rules of access in :mod:`web.events.access`, changes to an
event (shared by the command line and the staff pages) in :mod:`web.events.changes`; the tables in
:mod:`web.tables.events`; the pages in :mod:`web.events.index_views` and :mod:`web.events.pairings_views`
(the staff pages are in the admin area, :mod:`web.admin.staff`).
"""
