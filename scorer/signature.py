"""A score's signature as a value (sacrebleu's ``Signature``): what computed the figure, so that
two figures are compared only when they were computed the same way.

Its text is what every stored score carries, parts joined by ``|``: the metric's name, then what
it computes in the order its module writes it (the tool, each option, its tokens, which code ran,
the scorer's version, its scale), then, for a profile's column, the profile's tokens for that
metric, the profile and its normalisation::

    METEOR|meteor-1.5|l:en|norm|tok:ptb-corenlp-3.4.1-lc-nopunct|impl:python|nlgboard:0.2.0
      |profile:e2e|norm:e2e-v2:ws+quotes|tables:e2e-metrics-fixes

``str(Signature.parse(text)) == text`` for any text (the ones stored by earlier versions
included), and two signatures are comparable when they are equal but for the parts that name
which code ran (``IMPLEMENTATION``), which give the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from scorer import __version__

IMPLEMENTATION = frozenset({"impl", "transformers", "encoder"})
"""Keys of the parts that name which code ran, not what it computes: METEOR/PTB as the Python
ports or the jars (equal number for number), and the embedding model run by transformers or by
our plain torch encoder on the same weights (vectors within 1e-5, scores within 1e-6: far below
the 4 decimals shown)."""

VERSION = "nlgboard"


@dataclass(frozen=True)
class Signature:
    metric: str
    """The figure's name (``BLEU``, ``OK%``)."""
    parts: tuple[str, ...] = ()
    """What the metric computes, as written: bare words (``norm``, ``mean``) and ``key:value``
    options (``n:4``, ``case:lc``, ``impl:python``, ``nlgboard:0.2.0``, ``scale:x100``)."""
    tokens: str | None = None
    """How the profile tokenises the texts for this metric alone (``tokens:nltk_words``)."""
    profile: str | None = None
    """The profile whose column this is (None: the metric's own signature)."""
    normalisation: str | None = None
    """The profile's normalisation (may itself hold ``|``: ``e2e-v2:ws+quotes|tables:...``)."""

    @classmethod
    def of(cls, metric: str, *parts: str, after: tuple[str, ...] = ()) -> Signature:
        """A metric's signature: its parts, this scorer's version, then ``after``."""
        return cls(metric, (*parts, f"{VERSION}:{__version__}", *after))

    @classmethod
    def parse(cls, text: str) -> Signature:
        head, profile, normalisation = text, None, None
        at = text.find("|profile:")
        if at >= 0 and "|norm:" in text[at + 1 :]:
            head = text[:at]
            profile, normalisation = text[at + len("|profile:") :].split("|norm:", 1)
        metric, *parts = head.split("|")
        tokens = None
        if profile is not None and parts and parts[-1].startswith("tokens:"):
            tokens = parts.pop().removeprefix("tokens:")
        return cls(metric, tuple(parts), tokens, profile, normalisation)

    def __str__(self) -> str:
        text = "|".join((self.metric, *self.parts))
        if self.profile is None:
            return text
        tokens = f"|tokens:{self.tokens}" if self.tokens is not None else ""
        return f"{text}{tokens}|profile:{self.profile}|norm:{self.normalisation}"

    def option(self, key: str) -> str | None:
        """The value of the part ``key:value`` (the first such), or None."""
        for part in self.parts:
            name, colon, value = part.partition(":")
            if colon and name == key:
                return value
        return None

    @property
    def options(self) -> dict[str, str]:
        """Every ``key:value`` part but which code ran and the version."""
        pairs = (part.partition(":") for part in self.parts)
        return {
            key: value
            for key, colon, value in pairs
            if colon and key not in IMPLEMENTATION and key != VERSION
        }

    @property
    def implementation(self) -> tuple[str, ...]:
        """The parts that name which code ran (``impl:python``, ``encoder:bert-torch``)."""
        return tuple(p for p in self.parts if p.partition(":")[0] in IMPLEMENTATION)

    @property
    def version(self) -> str | None:
        return self.option(VERSION)

    def scaled(self, factor: float) -> Signature:
        return replace(self, parts=(*self.parts, f"scale:x{factor:g}"))

    def in_profile(self, profile: str, normalisation: str, tokens: str | None = None) -> Signature:
        """The signature of this metric's column in ``profile``."""
        return replace(self, tokens=tokens, profile=profile, normalisation=normalisation)

    def comparable(self) -> Signature:
        """This signature without the parts that name which code ran."""
        kept = tuple(p for p in self.parts if p.partition(":")[0] not in IMPLEMENTATION)
        return replace(self, parts=kept)

    def comparable_with(self, other: Signature) -> bool:
        """Whether a figure signed ``self`` may be compared with one signed ``other``."""
        return self.comparable() == other.comparable()
