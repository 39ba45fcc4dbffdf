"""Mao over HTTP, under ``/mao-games``: a controller per resource (the match and its views, the
table's acts, the rules, the log), the schemas and who may do what (``access``)."""
