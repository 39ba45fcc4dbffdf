"""What the pages read, one module per area: the read side of the use cases. A query takes the
context (and the actor where who asks changes the answer), checks who may with ``policy``, and
answers data; the pages put words on it. No page reads the application or the read models itself
(``tests/unit/test_layer_boundaries.py``)."""
