"""Metrics with fixed options under ids of their own, for profiles that list metrics by id."""

from __future__ import annotations

from scorer.metrics import register_preset

register_preset("BLEU-webnlg2017", "BLEU-multibleu", lowercase=True, references=3)
"""``bleu_eval_3ref.sh``: ``multi-bleu.perl -lc`` on reference0-2 (empty lines included)."""

register_preset("METEOR-webnlg2017", "METEOR-files", references=3)
"""``meteor_eval.sh``: ``meteor-1.5.jar -l en -norm -r 3``."""
