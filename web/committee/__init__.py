"""The adjudication committee (issue 7): cases, members' votes, the live tally, the Committee API.

The pages are :mod:`web.committee.views`, the API :mod:`web.committee.api`, both registered by the
app factory (:func:`web.app.register_areas`) with log-ins (:mod:`web.auth`), the appeals
(:mod:`web.appeals`) and the audit trail's watch of the tables (:mod:`web.audit`).
"""
