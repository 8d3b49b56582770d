"""The scorer's command-line tools: ``nlg-score`` (``score``), ``nlg-human`` (``human``) and
``nlgboard-submit`` (``submit``)."""
