"""What the pages and the API read, one module per area: the read side of the use cases. A query
takes the context (and the actor where who asks changes the answer), checks who may with
``policy``, and answers data; the faces put words on it or encode it. Neither reads the application
or the read models itself (``tests/unit/test_layer_boundaries.py``)."""
