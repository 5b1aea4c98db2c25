"""Loop candidate -> rules model: a small symbolic AGoT state for the cards of one cycle.

A :class:`ruleproof.cards.graph.Candidate` names a cycle of abilities.
:func:`encode` (:mod:`.accept`) checks that every ability on it can be encoded
faithfully, picks the cards the model holds (the cycle's, hosts of its
attachments, the other named cards) and records what it leaves out;
:func:`build_model` (:mod:`.model`) builds the :class:`ruleproof.dsl.Model` on
which :mod:`ruleproof.loops.lasso` asks its questions.  What each cost and
effect does is the semantics table of :mod:`ruleproof.cards.semantics`; the
encoders of :mod:`.parts` are keyed like it, one small function per entry,
sharing the step context of :mod:`.step`.  A mutant (``ModelSpec(mutant=...)``)
is the table with one entry swapped (:data:`ruleproof.cards.semantics.MUTANTS`).
"""

from ruleproof.loops.encode.accept import (
    Direction,
    Encoding,
    LeftOut,
    LoopCard,
    Unsupported,
    can_host,
    encode,
    missing_targets,
    plain_alternatives,
    source_zones,
    static_match,
    target_match,
)
from ruleproof.loops.encode.model import ALL_GROUPS, GROUP_TEXT, MUTANTS, ModelSpec, build_model, takes_control
from ruleproof.loops.encode.parts import COST_ENCODERS, EFFECT_ENCODERS
from ruleproof.loops.encode.step import cid

__all__ = [
    "ALL_GROUPS",
    "COST_ENCODERS",
    "EFFECT_ENCODERS",
    "GROUP_TEXT",
    "MUTANTS",
    "Direction",
    "Encoding",
    "LeftOut",
    "LoopCard",
    "ModelSpec",
    "Unsupported",
    "build_model",
    "can_host",
    "cid",
    "encode",
    "missing_targets",
    "plain_alternatives",
    "source_zones",
    "static_match",
    "target_match",
    "takes_control",
]
