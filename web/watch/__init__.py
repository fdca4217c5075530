"""The arbiter's watch on the web side (issue 36): reading a live source (:mod:`.source`), the command
``adjudicator watch`` (``web/commands/watch.py``) and the event's Round view. The rules are in
:mod:`adjudicator.watch`; this package only reads sources and stores what the watch found."""
