"""The use cases: what a person may do with the service, whichever face they use.

Each is a function ``(context, actor, input) -> result`` (a target's id may come before the input:
the league a member joins), with no litestar in sight: the HTTP controllers decode a request, call
one and encode its result; the web pages decode a form, call the same one and render its result.
Who may do it is checked in it, by the pure rules of ``policy``; a write is noted for its writer's
reads (``context.write``), in that one place. One module per area; ``docs/architecture.md`` says
which layer may import which.
"""
