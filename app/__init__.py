"""The NLG shared-task board: three layers, each a package (ARCHITECTURE.md).

* ``app.data``: configuration, the database and its models, storage, test sets, per-item
  statistics, the queue as the web sees it, the visibility rule, e-mail;
* ``app.web``: the Flask app (``app.web.create_app``), its blueprints, templates and services;
* ``app.entry``: the composition root (``app.entry.root``, the one place that wires the worker
  in), the ``nlgboard`` CLI, its console entry point, the WSGI module and the demo seed.

Layers import downwards only (entry > web | worker > data | baselines > scorer), checked by
import-linter.
"""
