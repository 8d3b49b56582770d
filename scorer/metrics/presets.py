"""Metrics with fixed options under ids of their own, for profiles that list metrics by id."""

from __future__ import annotations

from scorer.metrics import register_preset
from scorer.metrics.meteor_files import MeteorFiles

register_preset(
    "BLEU-webnlg2017",
    "BLEU-multibleu",
    glossary=(
        "Word n-gram overlap (1 to 4) with the first three references, x 100, as WebNLG 2017 "
        "scored it (Moses multi-bleu.perl -lc on ASCII-folded, tokenised text)."
    ),
    lowercase=True,
    references=3,
)
"""``bleu_eval_3ref.sh``: ``multi-bleu.perl -lc`` on reference0-2 (empty lines included)."""

register_preset(
    "METEOR-webnlg2017",
    "METEOR-files",
    glossary=f"{MeteorFiles.traits.glossary} WebNLG 2017: the first three references.",
    references=3,
)
"""``meteor_eval.sh``: ``meteor-1.5.jar -l en -norm -r 3``."""
