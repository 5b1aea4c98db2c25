"""Properties of unique cards, duplicates and the dead pile (model/agot/unique.py).

Each property restates a rule from the Rules Reference sections Unique Cards,
Duplicates, Dead Pile and Ownership and Control, or from FAQ (1.2)/(1.3),
spelled out over titles, owners and zones rather than with the model's own
helper terms.  A duplicate is in play only as a "duplicate card" (Duplicates:
it has no title while in play), so "an instance of a unique card in play"
counts the cards in play as themselves, never duplicates.  Properties marked
*strengthening* are rules in their own right that make the others provable
by induction.
"""

from __future__ import annotations

from ruleproof.dsl import And, Count, Exists, ForAll, If, Implies, Model, Not, Or, Term, Transition

__all__ = ["register"]


def register(m: Model) -> None:
    """Add the unique-card properties to ``m``."""
    v, s = m.v, m.sorts
    Player, Title, Card = s.Player, s.Title, s.Card

    def other_cards(c: Term) -> list[Term]:
        """Every card but ``c``; a copy of ``c`` is one of them that shares its title (Copy (of a card))."""
        return [d for d in Card if d.name != c.name]

    def same_title_other(d: Term, c: Term) -> Term:
        """``d`` is a copy of ``c``: copies are defined by title."""
        return v.title[d] == v.title[c]

    def copy_in_dead_pile_of(x: Term, c: Term) -> Term:
        """Some other copy of ``c`` lies in player ``x``'s dead pile (a card lies in its owner's dead pile)."""
        return Or(False, *(And(same_title_other(d, c), v.owner[d] == x, v.zone[d] == "dead") for d in other_cards(c)))

    def unique_card(c: Term) -> Term:
        return v.unique[v.title[c]]

    # ------------------------------------------------------------------ invariants
    m.invariant(
        "a card out of play is under its owner's control (strengthening)",
        ForAll(Card, lambda c: Implies(v.zone[c] != "play", v.controller[c] == v.owner[c])),
        cites=["Ownership and Control"],
        doc="A player controls the cards in his or her out of play areas; a card goes to its owner's areas.",
    )
    m.invariant(
        "each player owns or controls at most one instance of each unique title in play",
        ForAll(
            Player,
            lambda x: ForAll(
                Title,
                lambda t: Implies(
                    v.unique[t],
                    Count(
                        Card,
                        lambda d: And(v.title[d] == t, v.zone[d] == "play", Or(v.owner[d] == x, v.controller[d] == x)),
                    )
                    <= 1,
                ),
            ),
        ),
        cites=["Unique Cards", "Ownership and Control", "Duplicates"],
        doc="Duplicates are not counted: a duplicate in play has no title.",
    )
    m.invariant(
        "a duplicate lies under an in-play copy of the same unique title that its owner owns",
        ForAll(
            Card,
            lambda d: Implies(
                v.zone[d] == "dup",
                And(
                    unique_card(d),
                    Or(
                        False,
                        *(
                            And(
                                v.under[d] == u, v.zone[u] == "play", v.title[u] == v.title[d], v.owner[u] == v.owner[d]
                            )
                            for u in other_cards(d)
                        ),
                    ),
                ),
            ),
        ),
        cites=["Duplicates", "Leaves Play", "Unique Cards"],
        doc="A duplicate is placed under the copy already in play; when that card leaves play its duplicates are "
        "discarded.",
    )

    # ------------------------------------------------------------------ costs
    def no_gold_change(t: Transition) -> Term:
        return ForAll(Player, lambda q: t.post(v.gold[q]) == v.gold[q])

    m.action_property(
        "marshalling a duplicate costs no gold",
        "marshal_duplicate",
        lambda t, p, c, u: no_gold_change(t),
        cites=["Duplicates", "Unique Cards"],
        doc="Duplicates: there is no cost to marshal a card as a duplicate.",
    )
    m.action_property(
        "putting a duplicate into play costs no gold",
        "put_into_play_duplicate",
        lambda t, p, c, u: no_gold_change(t),
        cites=["Put into Play", "Duplicates"],
    )
    m.action_property(
        "marshalling a card pays its gold cost",
        "marshal",
        lambda t, p, c: And(t.post(v.gold[p]) == v.gold[p] - v.cost[c], v.gold[p] >= v.cost[c]),
        cites=["Marshal", "Costs"],
    )

    m.action_property(
        "a player who gains gold adds it to his or her own gold pool",
        "gain_gold",
        lambda t, p: ForAll(Player, lambda q: t.post(v.gold[q]) == If(q == p, v.gold[q] + 1, v.gold[q])),
        cites=["Gold"],
        doc="Gold: when a player gains gold, that player takes an equivalent amount of gold from the treasury and "
        "adds it to his or her gold pool.",
    )
    m.action_property(
        "putting a card into play costs no gold",
        "put_into_play",
        lambda t, p, c: no_gold_change(t),
        cites=["Put into Play"],
        doc="Put into Play: the gold cost of the card being put into play is not paid.",
    )

    # ------------------------------------------------------------------ where each card ends up
    m.action_property(
        "a marshalled card is placed in play under its marshalling player's control",
        "marshal",
        lambda t, p, c: And(v.zone[c] == "hand", v.owner[c] == p, t.post(v.zone[c]) == "play",
                            t.post(v.controller[c]) == p),
        cites=["Marshal", "Ownership and Control"],
        doc="Marshal: the active player marshals a card from his or her hand by paying its gold cost and placing it "
        "in his or her play area.",
    )
    m.action_property(
        "a card marshalled as a duplicate is placed under the copy it duplicates",
        "marshal_duplicate",
        lambda t, p, c, u: And(v.zone[c] == "hand", t.post(v.zone[c]) == "dup", t.post(v.under[c]) == u),
        cites=["Duplicates", "Marshal"],
        doc="Duplicates (Appendix I, 3.2): a duplicate is placed faceup, overlapped by the copy already in play.",
    )
    m.action_property(
        "a card put into play enters play under the control of the player the ability names",
        "put_into_play",
        lambda t, p, c: And(t.post(v.zone[c]) == "play", t.post(v.controller[c]) == p),
        cites=["Put into Play", "Ownership and Control"],
    )
    m.action_property(
        "a card put into play as a duplicate is placed under the copy it duplicates",
        "put_into_play_duplicate",
        lambda t, p, c, u: And(t.post(v.zone[c]) == "dup", t.post(v.under[c]) == u),
        cites=["Put into Play", "Duplicates"],
    )
    m.action_property(
        "a card put into play comes from an out of play area",
        "put_into_play",
        lambda t, p, c: And(v.zone[c] != "play", v.zone[c] != "dup"),
        cites=["Put into Play", "In Play and Out of Play", "Duplicates"],
        doc="Put into Play: such abilities place the card directly into play from an out of play state. In Play "
        "and Out of Play: the cards a player controls in the play area, duplicates among them, are in play.",
    )
    m.action_property(
        "a card put into play as a duplicate comes from an out of play area",
        "put_into_play_duplicate",
        lambda t, p, c, u: And(v.zone[c] != "play", v.zone[c] != "dup"),
        cites=["Put into Play", "In Play and Out of Play", "Duplicates"],
        doc="Put into Play: from an out of play state; a duplicate is in play (In Play and Out of Play), so a "
        "card already a duplicate is not put into play again.",
    )
    m.action_property(
        "a card brought back from the dead pile comes from its owner's dead pile",
        "return_from_dead",
        lambda t, p, c: And(v.zone[c] == "dead", v.owner[c] == p),
        cites=["Dead Pile"],
        doc="Dead Pile: an effect that would cause the card to enter play directly from the dead pile; a killed "
        "character is placed on top of its owner's dead pile.",
    )
    m.action_property(
        "a player who takes control of a card controls it",
        "take_control",
        lambda t, p, c: And(v.zone[c] == "play", t.post(v.controller[c]) == p, t.post(v.zone[c]) == "play"),
        cites=["Ownership and Control"],
    )
    m.action_property(
        "a player takes control only of a card another player controls",
        "take_control",
        lambda t, p, c: v.controller[c] != p,
        cites=["Ownership and Control"],
        doc="Ownership and Control: some abilities may cause cards to change control during a game; taking control "
        "is such a change, from the player who controlled the card to the one who takes it.",
    )
    m.action_property(
        "control reverts only of a card its owner does not control",
        "revert_control",
        lambda t, c: v.controller[c] != v.owner[c],
        cites=["Ownership and Control"],
        doc="Ownership and Control: cards enter play under their owner's control, and a change of control can end; "
        "control reverts to the owner from the player who took it, so the owner did not control the card.",
    )
    m.action_property(
        "when control reverts, the card's owner controls it",
        "revert_control",
        lambda t, c: And(v.zone[c] == "play", t.post(v.controller[c]) == v.owner[c], t.post(v.zone[c]) == "play"),
        cites=["Ownership and Control"],
    )
    m.action_property(
        "a card placed in the dead pile from its owner's hand or discard pile is in the dead pile",
        "place_in_dead_pile",
        lambda t, c: And(Or(v.zone[c] == "hand", v.zone[c] == "discard"), t.post(v.zone[c]) == "dead"),
        cites=["Dead Pile"],
    )
    m.action_property(
        "a card discarded from hand is in its owner's discard pile",
        "discard_from_hand",
        lambda t, c: And(v.zone[c] == "hand", t.post(v.zone[c]) == "discard"),
        cites=["Discard Pile"],
    )

    # ------------------------------------------------------------------ entering play
    def not_while_copy_in_play(x: Term, c: Term) -> Term:
        """``x`` neither owns nor controls another in-play copy of ``c``."""
        return Not(
            Or(
                False,
                *(
                    And(same_title_other(d, c), v.zone[d] == "play", Or(v.owner[d] == x, v.controller[d] == x))
                    for d in other_cards(c)
                ),
            )
        )

    m.action_property(
        "a unique card is not marshalled while a copy is in its owner's dead pile",
        "marshal",
        lambda t, p, c: Implies(unique_card(c), Not(copy_in_dead_pile_of(p, c))),
        cites=["Dead Pile", "Unique Cards"],
    )
    m.action_property(
        "a duplicate is not marshalled while a copy is in its owner's dead pile",
        "marshal_duplicate",
        lambda t, p, c, u: Not(copy_in_dead_pile_of(p, c)),
        cites=["Dead Pile", "Duplicates"],
        doc="FAQ (1.2): a player cannot bring a unique card into play as a duplicate if another copy is in his or "
        "her dead pile.",
    )
    m.action_property(
        "a copy of a unique card its owner has in play is marshalled only as a duplicate",
        "marshal",
        lambda t, p, c: Implies(unique_card(c), not_while_copy_in_play(p, c)),
        cites=["Unique Cards", "Duplicates"],
        doc="FAQ (1.3): each other copy a player owns and controls that would enter play does so as a duplicate; "
        "a copy owned or controlled by someone else blocks it altogether.",
    )
    def becomes_duplicate_on(t: Transition, d: Term) -> Term:
        """``d`` enters play as a duplicate in this step, under an in-play copy of the same unique title whose owner
        (``d``'s owner) owns and controls it."""
        return Or(
            False,
            *(
                And(
                    t.post(v.under[d]) == u,
                    v.zone[u] == "play",
                    v.title[u] == v.title[d],
                    v.owner[u] == v.owner[d],
                    v.controller[u] == v.owner[d],
                )
                for u in other_cards(d)
            ),
        )

    m.step_property(
        "a card enters play as a duplicate only on an in-play copy of its unique title that its owner owns and "
        "controls",
        lambda t: ForAll(
            Card,
            lambda d: Implies(
                And(v.zone[d] != "dup", t.post(v.zone[d]) == "dup"), And(unique_card(d), becomes_duplicate_on(t, d))
            ),
        ),
        cites=["Duplicates", "Unique Cards", "Ownership and Control", "Put into Play"],
        doc="Duplicates: a player may place a duplicate of a unique card he or she owns and controls; FAQ (1.2): both "
        "the duplicate and the unique card must be owned and controlled by the player. Stated over every step, "
        "whatever action takes it (marshalling, putting into play, an effect bringing a card back from the dead "
        "pile), and over the card the duplicate lies under after the step.",
    )
    m.action_property(
        "a unique card is not put into play while a copy is in play or in the dead pile of its owner or new controller",
        "put_into_play",
        lambda t, p, c: Implies(
            unique_card(c),
            And(
                not_while_copy_in_play(p, c),
                not_while_copy_in_play(v.owner[c], c),
                Not(copy_in_dead_pile_of(p, c)),
                Not(copy_in_dead_pile_of(v.owner[c], c)),
            ),
        ),
        cites=["Put into Play", "Unique Cards", "Dead Pile"],
        doc="FAQ (1.3): a player cannot put into play a copy of an opponent's unique card if another copy owned "
        "by either player is in play or in its owner's dead pile.",
    )
    m.action_property(
        "a duplicate is not put into play while a copy is in its owner's dead pile",
        "put_into_play_duplicate",
        lambda t, p, c, u: Not(copy_in_dead_pile_of(p, c)),
        cites=["Dead Pile", "Duplicates", "Put into Play"],
    )

    def dead_copies_of_title(p: Term, c: Term) -> Term:
        """How many cards of ``c``'s title (``c`` included) lie in player ``p``'s dead pile."""
        return Count(Card, lambda d: And(v.title[d] == v.title[c], v.owner[d] == p, v.zone[d] == "dead"))

    def no_half_held_copy(p: Term, c: Term) -> Term:
        """Every other in-play copy of ``c`` is either owned and controlled by ``p`` or neither."""
        return ForAll(
            Card,
            lambda d: Implies(
                And(v.title[d] == v.title[c], v.zone[d] == "play"), (v.owner[d] == p) == (v.controller[d] == p)
            ),
        )

    m.action_property(
        "an effect can bring the only copy of a unique card in a dead pile back into play",
        "return_from_dead",
        lambda t, p, c: Implies(
            Or(Not(unique_card(c)), And(dead_copies_of_title(p, c) == 1, no_half_held_copy(p, c))),
            t.post(v.zone[c]) != "dead",
        ),
        cites=["Dead Pile", "Unique Cards"],
        doc="Dead Pile: a single instance of a unique card in a player's dead pile does not prevent an effect that "
        "would cause the card to enter play directly from the dead pile (as a duplicate if its owner owns and controls "
        "a copy in play: Put into Play).",
    )
    m.action_property(
        "an effect cannot bring a unique card back from a dead pile that holds another copy",
        "return_from_dead",
        lambda t, p, c: Implies(And(unique_card(c), dead_copies_of_title(p, c) >= 2), t.post(v.zone[c]) == "dead"),
        cites=["Dead Pile", "Unique Cards"],
        doc="FAQ (1.3): an ability that puts a unique card into play from a player's dead pile functions only if there "
        "would be no other copies of that card in that dead pile upon resolution of the ability.",
    )

    # ------------------------------------------------------------------ control
    m.action_property(
        "no player takes control of a unique card while a copy is in their dead pile",
        "take_control",
        lambda t, p, c: Implies(unique_card(c), Not(copy_in_dead_pile_of(p, c))),
        cites=["Dead Pile", "Unique Cards", "Ownership and Control"],
    )
    m.action_property(
        "no player takes control of a unique card while owning or controlling another copy in play",
        "take_control",
        lambda t, p, c: Implies(unique_card(c), not_while_copy_in_play(p, c)),
        cites=["Unique Cards", "Ownership and Control"],
        doc="FAQ (1.3): a player who controls a unique card (regardless of ownership) cannot take control of other "
        "copies.",
    )

    # ------------------------------------------------------------------ saves and leaving play
    def dups_under(c: Term, post: Transition | None = None) -> Term:
        """How many duplicates lie under ``c`` (before the step, or after it with ``post``)."""

        def z(d: Term) -> Term:
            return post.post(v.zone[d]) if post is not None else v.zone[d]

        return Count(Card, lambda d: And(z(d) == "dup", v.under[d] == c))

    def left_play(t: Transition, c: Term) -> Term:
        """``c`` left play: to its owner's dead pile, discard pile or hand, with every duplicate discarded."""
        return And(
            Or(t.post(v.zone[c]) == "dead", t.post(v.zone[c]) == "discard", t.post(v.zone[c]) == "hand"),
            t.post(v.controller[c]) == v.owner[c],
            ForAll(Card, lambda d: Implies(And(v.zone[d] == "dup", v.under[d] == c), t.post(v.zone[d]) == "discard")),
        )

    def saved(t: Transition, c: Term) -> Term:
        """``c`` stayed in play and exactly one duplicate under it was discarded (and nothing else changed)."""
        return And(
            unique_card(c),
            t.post(v.zone[c]) == "play",
            t.post(v.controller[c]) == v.controller[c],
            dups_under(c, t) == dups_under(c) - 1,
            ForAll(
                Card,
                lambda d: Implies(Not(And(v.zone[d] == "dup", v.under[d] == c)), t.post(v.zone[d]) == v.zone[d]),
            ),
            ForAll(Card, lambda d: Implies(t.post(v.zone[d]) != v.zone[d], t.post(v.zone[d]) == "discard")),
        )

    m.action_property(
        "a card that would leave play leaves it with its duplicates, unless one duplicate is discarded to save it",
        "leave_play",
        lambda t, c: And(v.zone[c] == "play", Or(left_play(t, c), saved(t, c))),
        cites=["Leaves Play", "Dead Pile", "Duplicates", "Save", "Ownership and Control"],
        doc="Leaves Play: all duplicates on the card are discarded; a killed card goes to its owner's dead pile. "
        "Duplicates: 'Interrupt: When the overlapping unique card would leave play, discard this duplicate to save "
        "that card.' A save is offered only then, and discards one duplicate.",
    )

    # ------------------------------------------------------------------ sanity
    def sometimes(name: str, cond: Term, cites: list[str]) -> None:
        m.reachable(f"sanity: {name}", cond, cites=cites)

    first = Title[0]
    cards = list(Card)
    sometimes(
        "two players each have a copy of the same unique title in play",
        Or(
            False,
            *(
                And(
                    v.title[a] == first,
                    v.title[b] == first,
                    v.owner[a] != v.owner[b],
                    v.zone[a] == "play",
                    v.zone[b] == "play",
                )
                for i, a in enumerate(cards)
                for b in cards[i + 1 :]
            ),
        ),
        ["Unique Cards"],
    )
    sometimes("a duplicate is in play", Exists(Card, lambda d: v.zone[d] == "dup"), ["Duplicates"])
    sometimes(
        "a player controls an opponent's unique card",
        Exists(Card, lambda c: And(unique_card(c), v.zone[c] == "play", v.controller[c] != v.owner[c])),
        ["Ownership and Control"],
    )
    sometimes(
        "two copies of a unique title are in one dead pile",
        Exists(Card, lambda c: And(unique_card(c), dead_copies_of_title(v.owner[c], c) >= 2)),
        ["Dead Pile"],
    )
    sometimes(
        "a unique card is in play while its copy is in an opponent's dead pile",
        Exists(
            Card,
            lambda c: And(
                unique_card(c),
                v.zone[c] == "play",
                Or(
                    False,
                    *(
                        And(v.title[d] == v.title[c], v.zone[d] == "dead", v.owner[d] != v.owner[c])
                        for d in other_cards(c)
                    ),
                ),
            ),
        ),
        ["Dead Pile"],
    )
    if m.params.get("copies", 0) >= 3:
        sometimes(
            "a card has two duplicates",
            Exists(Card, lambda u: Count(Card, lambda d: And(v.zone[d] == "dup", v.under[d] == u)) >= 2),
            ["Duplicates"],
        )
    if m.params.get("plain_titles", 0) >= 1:
        sometimes(
            "a player has two copies of a non-unique title in play",
            Exists(
                Player,
                lambda x: Exists(
                    Title,
                    lambda t: And(
                        Not(v.unique[t]),
                        Count(Card, lambda d: And(v.title[d] == t, v.zone[d] == "play", v.owner[d] == x)) >= 2,
                    ),
                ),
            ),
            ["Unique Cards"],
        )
