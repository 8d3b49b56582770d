"""METEOR 1.5 without Java: a port of the ``meteor-1.5.jar`` that pycocoevalcap ships (Denkowski
and Lavie's Meteor, LGPL 2.1), for ``-l en -norm`` with the exact, stem, synonym and paraphrase
modules and the jar's default English parameters. Its statistics are the jar's, number for number
(checked against the jar by the differential tests), so the corpus score is too."""
