"""The NLG shared-task board's scoring library.

Importable on its own (``pip install nlgboard`` and ``nlg-score``) so that a participant scoring
dev data offline gets exactly the number the leaderboard shows.
"""

__version__ = "0.2.0"
