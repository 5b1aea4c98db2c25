"""Properties of gaining and moving power and of moving attachments.

Each property restates a rule from the Rules Reference (Move, Moving Power,
Gains, Power, Attachment Cards, Leaves Play) over the model's state, spelled
out here from the static card data (kind, owner) rather than taken from the
model's own helper terms.  Properties marked *strengthening* are rules in
their own right that make the others provable by induction.
"""

from __future__ import annotations

from ruleproof.dsl import And, Count, Exists, ForAll, Implies, Model, Not, Or, Sum, Term, Transition

__all__ = ["register"]


def register(m: Model) -> None:
    """Add the power and move properties to ``m``."""
    v, s, st = m.v, m.sorts, m.statics
    Player, Card, Att = s.Player, s.Card, s.Att
    supply = m.params["supply"]

    def character(c: Term) -> Term:
        return v.kind[c] == "character"

    def elsewhere(c: Term, here: Term) -> Term:
        """Card ``c`` is another card than ``here``."""
        return Not(c == here)

    m.invariant(
        "at most one move resolves at a time, with the power it moves on its source (strengthening)",
        And(
            Count(Att, lambda x: v.moving_att[x]) + Count(Card, lambda c: v.moving_pow[c] >= 1) <= 1,
            ForAll(Card, lambda c: v.moving_pow[c] <= v.power[c]),
        ),
        cites=["Move", "Moving Power"],
    )

    # ---------------------------------------------------------------- tokens
    m.invariant(
        "power is conserved: the supply is split between the treasury and the cards",
        v.treasury + Sum(v.power[c] for c in Card) == supply,
        cites=["Gains", "Power", "Leaves Play", "Moving Power"],
        doc="Gained power comes from the treasury, power on a card leaving play returns to it, and a move "
        "takes power off one card to put it on another: no power is created or lost.",
    )
    m.invariant(
        "only cards in play carry power",
        ForAll(Card, lambda c: Implies(~v.in_play[c], v.power[c] == 0)),
        cites=["Leaves Play", "In Play and Out of Play", "Moving Power"],
        doc="FAQ 'A Cask of Ale': power can be moved to a revealed plot card (in play) but not to an agenda, "
        "which is not in play; a card leaving play returns its tokens to the treasury.",
    )
    m.invariant(
        "power is moved only off a card in play",
        ForAll(Card, lambda c: Implies(v.moving_pow[c] >= 1, v.in_play[c])),
        cites=["Abilities", "Moving Power"],
        doc="Card abilities only interact with, and can only target, cards that are in play: the card a move "
        "ability takes power off is in play from the ability's initiation to its resolution.",
    )
    victory = m.params["victory"]
    m.invariant(
        "power grows one gain at a time until a player wins: the treasury never runs out (strengthening)",
        Sum(v.power[c] for c in Card) <= len(Player) * (victory - 1) + 1,
        cites=["Power", "Winning the Game", "Tokens, Running out of"],
        doc="There is no limit to the power tokens: the only bound is the end of the game at 15 power.",
    )
    for fam in ("gain_power", "initiate_power_move"):
        m.action_property(
            f"no power changes hands once a player has won ({fam})",
            fam,
            lambda t, c: ForAll(Player, lambda p: v.total[p] < victory),
            cites=["Winning the Game"],
            doc="The game ends immediately when a player has 15 (or more) power.",
        )
    m.invariant(
        "a player's power total is the power on the cards they control",
        ForAll(Player, lambda p: v.total[p] == Sum(v.power[c] for c in Card if st.owner.value(c.name) == p.name)),
        cites=["Power", "Moving Power"],
        doc="Power moved to a card under another player's control counts toward that player's victory "
        "condition (Moving Power; FAQ 1.4 Control of Tokens).",
    )

    # ---------------------------------------------------------------- gains
    m.action_property(
        "a gain takes power from the treasury and opens 'when you gain power'",
        "gain_power",
        lambda t, c: And(
            v.in_play[c],
            t.post(v.treasury) == v.treasury - 1,
            t.post(v.power[c]) == v.power[c] + 1,
            ForAll(Player, lambda p: Implies(v.owner[c] == p, t.post(v.reaction[p]))),
        ),
        cites=["Gains", "Reactions"],
    )

    # ---------------------------------------------------------------- moving power
    def power_move(t: Transition, src: Term) -> Term:
        dst = t.choice("to")
        return And(
            Not(dst == src),
            t.post(v.power[src]) < v.power[src],
            ForAll(Card, lambda c: Implies(dst == c, t.post(v.power[c]) > v.power[c])),
        )

    m.action_property(
        "a power move never goes to the current placement",
        "resolve_power_move",
        power_move,
        cites=["Move", "Moving Power"],
        doc="Moved power leaves the card it was on and arrives on a different card.",
    )
    m.action_property(
        "power is conserved by a move",
        "resolve_power_move",
        lambda t, src: And(
            t.post(v.treasury) == v.treasury,
            Sum(t.post(v.power[c]) for c in Card) == Sum(v.power[c] for c in Card),
            ForAll(Card, lambda c: Or(c == src, t.choice("to") == c, t.post(v.power[c]) == v.power[c])),
        ),
        cites=["Moving Power"],
        doc="Power is moved from one card to another: what leaves the source is what reaches the destination.",
    )
    m.action_property(
        "moving power never gains power",
        "resolve_power_move",
        lambda t, src: ForAll(Player, lambda p: Implies(~v.reaction[p], ~t.post(v.reaction[p]))),
        cites=["Moving Power", "Gains"],
        doc="Power that is moved is not considered 'gained': a 'when you gain power' reaction does not open.",
    )

    # ---------------------------------------------------------------- moving attachments
    m.action_property(
        "an attachment move never goes to its current placement",
        "resolve_attachment_move",
        lambda t, x: And(Not(v.attached_to[x] == t.choice("to")), t.post(v.attached_to[x]) == t.choice("to")),
        cites=["Move", "Attachment Cards"],
    )
    m.invariant(
        "an attachment in play is attached to a character in play",
        ForAll(
            Att,
            lambda x: Implies(
                v.att_in_play[x], Exists(Card, lambda c: And(v.attached_to[x] == c, character(c), v.in_play[c]))
            ),
        ),
        cites=["Attachment Cards", "Leaves Play"],
        doc="An attachment attaches only to a character; if that character leaves play the attachment "
        "returns to its owner's hand.",
    )

    # ---------------------------------------------------------------- no valid destination
    def attachment_has_destination(x: Term) -> Term:
        return Exists(Card, lambda c: And(character(c), v.in_play[c], Not(v.attached_to[x] == c)))

    def power_has_destination(src: Term) -> Term:
        return Exists(Card, lambda d: And(elsewhere(d, src), v.in_play[d], Implies(v.to_char, character(d))))

    m.invariant(
        "a move with no valid destination is never attempted",
        And(
            ForAll(Att, lambda x: Implies(v.moving_att[x], And(v.att_in_play[x], attachment_has_destination(x)))),
            ForAll(Card, lambda c: Implies(v.moving_pow[c] >= 1, power_has_destination(c))),
        ),
        cites=["Move"],
        doc="If there is no valid destination for a move, the move attempt cannot be made: an ability whose "
        "only effect is the move cannot be initiated.",
    )
    # ---------------------------------------------------------------- a move ability, from initiation to resolution
    def moving() -> Term:
        return Or(*(v.moving_att[x] for x in Att), *(v.moving_pow[c] >= 1 for c in Card))

    for fam in ("gain_power", "react_to_gain", "initiate_power_move", "initiate_attachment_move", "attach",
                "enter_play", "leave_play"):
        m.action_property(
            f"nothing else happens while a move resolves ({fam})",
            fam,
            lambda t, *ps: Not(moving()),
            cites=["Initiating Abilities / Marshaling Cards", "Move"],
            doc="Once a move ability is initiated, its effect completes its initiation and resolves: nothing "
            "else happens in between.",
        )
    m.action_property(
        "a power move ability initiated is the move that resolves: its amount and its kind of destination",
        "initiate_power_move",
        lambda t, src: And(
            t.post(v.moving_pow[src]) == t.choice("amount"),
            t.post(v.to_char) == t.choice("to_character"),
        ),
        cites=["Initiating Abilities / Marshaling Cards", "Moving Power"],
    )
    m.action_property(
        "an attachment move ability initiated is the move that resolves",
        "initiate_attachment_move",
        lambda t, x: t.post(v.moving_att[x]),
        cites=["Initiating Abilities / Marshaling Cards", "Move", "Attachment Cards"],
    )
    m.action_property(
        "a power move moves the amount its ability names, to a character when it says so",
        "resolve_power_move",
        lambda t, src: And(
            v.moving_pow[src] >= 1,
            t.post(v.power[src]) == v.power[src] - v.moving_pow[src],
            Implies(v.to_char, character(t.choice("to"))),
        ),
        cites=["Moving Power", "Move"],
    )
    for fam in ("resolve_power_move", "resolve_attachment_move"):
        m.action_property(
            f"after a move resolves no move is pending ({fam})",
            fam,
            lambda t, *ps: And(
                ForAll(Att, lambda x: Not(t.post(v.moving_att[x]))),
                ForAll(Card, lambda c: t.post(v.moving_pow[c]) == 0),
            ),
            cites=["Move", "Initiating Abilities / Marshaling Cards"],
            doc="The move ability resolves once: the move is then over.",
        )
    m.action_property(
        "an attachment moves only by the move ability initiated for it",
        "resolve_attachment_move",
        lambda t, x: v.moving_att[x],
        cites=["Move", "Attachment Cards"],
    )
    m.action_property(
        "an attachment out of play enters play attached to the chosen character",
        "attach",
        lambda t, x: And(Not(v.att_in_play[x]), t.post(v.att_in_play[x]), t.post(v.attached_to[x]) == t.choice("to")),
        cites=["Attachment Cards", "Enters Play"],
        doc="An attachment in play is moved only by a move ability.",
    )
    m.action_property(
        "a card entering play is in play",
        "enter_play",
        lambda t, c: And(Not(v.in_play[c]), t.post(v.in_play[c])),
        cites=["In Play and Out of Play", "Enters Play"],
    )
    m.action_property(
        "a card leaving play is out of play",
        "leave_play",
        lambda t, c: And(v.in_play[c], Not(t.post(v.in_play[c]))),
        cites=["In Play and Out of Play", "Leaves Play"],
    )
    m.invariant(
        "faction and plot cards are always in play, agendas never",
        ForAll(
            Card,
            lambda c: And(
                Implies(Or(v.kind[c] == "faction", v.kind[c] == "plot"), v.in_play[c]),
                Implies(v.kind[c] == "agenda", Not(v.in_play[c])),
            ),
        ),
        cites=["In Play and Out of Play", "Agenda Cards"],
        doc="A player's faction card cannot leave play; the revealed plot card leaves play only when a new plot "
        "is revealed; agendas are out of play.",
    )
    m.action_property(
        "a 'when you gain power' reaction is initiated once for each gain",
        "react_to_gain",
        lambda t, p: And(v.reaction[p], Not(t.post(v.reaction[p]))),
        cites=["Reactions", "Gains"],
        doc="Each reaction may be initiated once each time its triggering condition occurs.",
    )

    # ---------------------------------------------------------------- sanity
    m.reachable(
        "sanity: power and an attachment on another player's character",
        And(
            Exists(
                Att,
                lambda x: And(
                    v.att_in_play[x],
                    Exists(Card, lambda c: And(v.attached_to[x] == c, Not(v.owner[c] == v.att_owner[x]))),
                ),
            ),
            Exists(Card, lambda c: And(character(c), v.power[c] >= 2)),
        ),
        cites=["Moving Power", "Attachment Cards"],
    )
