"""The web pages: server-rendered HTML for people, beside the JSON API (``docs/web.md``).

The pages read what the API reads (the read models, the current games, the public events) and
show a person only what the same person sees through the API. They live at ``/`` and under
``/web/``, with ``/signin`` (and its password and link forms), ``/signout`` and ``/join``; none
is in the OpenAPI document. Only their router
runs the session middleware. Their stylesheet and script are ours, served from ``/web/static``:
no CDN, so the pages work in a club's back room without internet.
"""
