"""Human-evaluation protocols, the registry: name -> ``Protocol`` (``base.py`` says what one
holds). A campaign names its protocol; everything else asks the protocol."""

from __future__ import annotations

from scorer.human.protocols.base import NO_CLUSTERS, Criterion, Protocol, Settings, Table
from scorer.human.protocols.da import DirectAssessment
from scorer.human.protocols.likert import Likert
from scorer.human.protocols.pairwise import Pairwise
from scorer.human.protocols.rankme import RankME
from scorer.human.protocols.rose import Rose

PROTOCOLS: dict[str, Protocol] = {
    protocol.name: protocol
    for protocol in (RankME(), DirectAssessment(), Rose(), Likert(), Pairwise())
}


def protocol(name: str) -> Protocol:
    """The protocol called ``name``; another name is refused, saying which exist."""
    try:
        return PROTOCOLS[name]
    except KeyError:
        raise ValueError(f"protocol {name!r} is not one of {', '.join(PROTOCOLS)}") from None


__all__ = ["NO_CLUSTERS", "PROTOCOLS", "Criterion", "Protocol", "Settings", "Table", "protocol"]
