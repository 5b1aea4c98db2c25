"""Properties of the classic Berserk action lifecycle (section 539 and its neighbours).

Each property cites the section it comes from.  The expected payment is
written here from the rule text (539.1-539.4.1), independently of how the
model's payment step computes it; the model's mutants show each property
can fail.

Note: ``t.post(x[i])`` reads *both* ``x`` and the index ``i`` after the step, so
a property about the card in flight quantifies over the cards and names the
card by the pre-state (``actor == c``) instead of writing ``t.post(x[actor])``.
"""

from __future__ import annotations

from ruleproof.dsl import And, ForAll, If, Implies, Model, Not, Or, Term, Transition

__all__ = ["register"]


def register(m: Model) -> None:
    """Attach the section 539 / 526.1 properties to an ``actions`` model."""
    v, s = m.v, m.sorts
    Card = s.Card
    last_use_taps = bool(m.params["last_use_taps"])
    interrupted_acted = bool(m.params["interrupted_acted"])
    names = {c.name for c in Card}

    def heal_feature(c: Term) -> Term:
        return Or(v.feat[c] == "heal_strike", v.feat[c] == "heal_assault")

    # ---------------------------------------------------------------- 539.2: declaration
    m.action_property(
        "539.2: нападение заявляется только открытой картой, и ресурсы резервируются",
        "declare_attack",
        lambda t, c, tg: And(
            Not(v.tapped[c]),
            Not(v.rsv_tap[c]),
            Implies(v.feat[c] == "x_per_turn", v.uses[c] < v.limit[c]),
            t.post(v.rsv_tap[c]),
            Implies(v.feat[c] == "x_per_turn", t.post(v.rsv_use[c])),
        ),
        cites=["539.2"],
        doc="The card must have the resource (be open, have a use left) even when a feature waives "
        "its payment, and the resource is reserved.",
    )
    m.action_property(
        "539.2: движение заявляется только при наличии очка движения, и оно резервируется",
        "declare_move",
        lambda t, c: And(v.move[c] >= 1, Not(v.tapped[c]), t.post(v.rsv_move[c])),
        cites=["539.2", "506.3"],
    )
    m.action_property(
        "539.2: способность с закрытием заявляется только открытой картой, и закрытие резервируется",
        "declare_ability",
        lambda t, c, tg: And(Not(v.tapped[c]), Not(v.rsv_tap[c]), t.post(v.rsv_tap[c])),
        cites=["539.2"],
    )
    m.action_property(
        "539.2: защитником назначается только открытая карта, и её закрытие резервируется",
        "assign_defender",
        lambda t, d: And(Not(v.tapped[d]), Not(v.rsv_tap[d]), t.post(v.rsv_tap[d])),
        cites=["539.2", "539.4.1"],
    )
    m.invariant(
        "539.2: зарезервированные ресурсы существуют только пока действие выполняется",
        Implies(v.stage == "idle", ForAll(Card, lambda c: And(Not(v.rsv_tap[c]), Not(v.rsv_move[c]), Not(v.rsv_use[c])))),
        cites=["539.2"],
    )

    def holder(c: Term) -> Term:
        return Or(v.actor == c, And(v.has_def, v.defender == c))

    m.invariant(
        "539.2: ресурсы зарезервированы только действующей картой и защитником",
        ForAll(
            Card,
            lambda c: And(
                Implies(v.rsv_tap[c], And(v.stage != "idle", holder(c), Not(v.tapped[c]))),
                Implies(v.rsv_move[c], And(v.actor == c, v.kind == "move", v.move[c] >= 1, Not(v.acted[c]))),
                Implies(v.rsv_use[c], And(v.actor == c, v.kind == "attack", v.uses[c] < v.limit[c])),
            ),
        ),
        cites=["539.2"],
        doc="A reserved resource is still there (open card, movement point, use left) until the payment stage.",
    )
    m.invariant(
        "539.4: модификатор ресурсов существует только у выполняющегося нападения",
        And(
            Implies(v.mod_att, And(v.kind == "attack", Or(v.stage == "counter", v.stage == "trig_d", v.stage == "payment"))),
            Implies(v.mod_def, And(v.has_def, v.stage == "payment")),
            Implies(v.has_def, And(v.kind == "attack", v.stage != "idle", v.side[v.defender] != v.active)),
            Implies(v.stage != "idle", v.side[v.actor] == v.active),
            Implies(v.blocked, And(v.kind == "ability", Or(v.stage == "declared", v.stage == "payment"))),
        ),
        cites=["539.4", "539.4.1"],
    )

    # ---------------------------------------------------------------- 539.2-539.4.1: payment
    def expected_waiver(c: Term) -> Term:
        """539.1-539.4.1: which reserved tap a feature removes from the payment."""
        per_turn_free = Not(And(last_use_taps, v.uses[c] + 1 >= v.limit[c]))
        as_actor = And(
            v.kind == "attack",
            Or(
                v.feat[c] == "no_tap_attack",  # 539.1.1
                And(v.feat[c] == "x_per_turn", per_turn_free),  # 539.1.3
                And(heal_feature(c), v.mod_att),  # 539.4
            ),
        )
        as_defender = Or(
            And(v.feat[c] == "heal_strike", v.mod_def),  # 539.4.1: «при ударе/атаке» covers the counter-strike
            v.feat[c] == "taps_after_assault",  # 539.1.2
        )
        return If(v.actor == c, as_actor, as_defender)

    def pays_exactly_due(t: Transition) -> Term:
        per_card = []
        for c in Card:
            completes = And(v.actor == c, v.kind != "move")
            per_card.append(
                And(
                    t.post(v.tapped[c]) == Or(v.tapped[c], And(v.rsv_tap[c], Not(expected_waiver(c)))),
                    t.post(v.move[c]) == If(completes, 0, v.move[c] - If(v.rsv_move[c], 1, 0)),
                    t.post(v.uses[c]) == v.uses[c] + If(v.rsv_use[c], 1, 0),
                )
            )
        return And(*per_card)

    m.action_property(
        "539.2: этап оплаты расходует ровно положенные ресурсы с учётом особенностей 539",
        "pay",
        pays_exactly_due,
        cites=["539.2", "539.1", "539.4", "539.4.1"],
        doc="Reserved resources minus the ones a resource-modifying feature names are paid; nothing else.",
    )
    m.action_property(
        "539.4: модификатор, наложенный срабатыванием, действует даже если карта снова ранена",
        "pay",
        lambda t: ForAll(
            Card,
            lambda c: Implies(And(v.actor == c, v.kind == "attack", v.mod_att), t.post(v.tapped[c]) == v.tapped[c]),
        ),
        cites=["539.4"],
        doc="Келе: once the heal trigger resolved leaving no wounds, Келе does not tap after this "
        "attack, whatever happens to its wounds before the payment stage.",
    )
    m.action_property(
        "539.4.1: модификатор «при нападении» не освобождает защитника от закрытия",
        "pay",
        lambda t: ForAll(
            Card,
            lambda c: Implies(
                And(v.has_def, v.defender == c, v.feat[c] == "heal_assault", v.rsv_tap[c]), t.post(v.tapped[c])
            ),
        ),
        cites=["539.4.1"],
    )
    m.invariant(
        "539.4.1: модификатор «при нападении» никогда не применяется к ответному удару",
        Not(And(v.has_def, v.feat[v.defender] == "heal_assault", v.mod_def)),
        cites=["539.4.1"],
    )
    m.action_property(
        "Блокирование (RP 3.1-1): заблокированная способность всё равно оплачивается",
        "pay",
        lambda t: ForAll(Card, lambda c: Implies(And(v.actor == c, v.blocked, v.rsv_tap[c]), t.post(v.tapped[c]))),
        cites=["RP 3.1-1 блокирование"],
    )
    m.action_property(
        "526.1: прерванное действие ничего не оплачивает",
        "interrupt",
        lambda t: And(
            *(
                And(
                    t.post(v.tapped[c]) == v.tapped[c],
                    t.post(v.uses[c]) == v.uses[c],
                    t.post(v.move[c]) == If(And(interrupted_acted, v.actor == c), 0, v.move[c]),
                    Not(t.post(v.rsv_tap[c])),
                    Not(t.post(v.rsv_move[c])),
                    Not(t.post(v.rsv_use[c])),
                    Implies(v.actor == c, t.post(v.acted[c]) == Or(v.acted[c], interrupted_acted)),
                )
                for c in Card
            ),
        ),
        cites=["526.1"],
        doc="Whether the card then counts as acted is the rule parameter interrupted_acted [U].",
    )

    # ---------------------------------------------------------------- 539.3: acted card, X per turn
    m.action_property(
        "539.3: подействовавшая карта не заявляет другого нападения, кроме разрешённого особенностью",
        "declare_attack",
        lambda t, c, tg: Implies(v.acted[c], And(v.feat[c] == "x_per_turn", v.uses[c] < v.limit[c])),
        cites=["539.3", "539.1.3"],
    )
    m.action_property(
        "539.3: подействовавшая карта не заявляет движение",
        "declare_move",
        lambda t, c: Not(v.acted[c]),
        cites=["539.3", "506.5"],
    )
    m.action_property(
        "539.3: подействовавшая карта не заявляет способность",
        "declare_ability",
        lambda t, c, tg: Not(v.acted[c]),
        cites=["539.3"],
    )
    m.invariant(
        "539.3: подействовавшая карта теряет все очки движения",
        ForAll(Card, lambda c: Implies(v.acted[c], v.move[c] == 0)),
        cites=["539.3", "506.5"],
    )
    m.invariant(
        "539.1.3: «X раз за ход» никогда не превышается",
        ForAll(Card, lambda c: v.uses[c] <= v.limit[c]),
        cites=["539.1.3"],
    )

    # ---------------------------------------------------------------- sanity targets (per roster)
    if "kele" in names and m.params["roster"] != "kele_defends":
        m.reachable(
            "sanity: Келе подействовала, не закрылась и снова ранена",
            And(v.stage == "idle", v.acted[Card.kele], Not(v.tapped[Card.kele]), v.wounds[Card.kele] >= 1),
            cites=["539.4"],
        )
    if "kele" in names and m.params["roster"] == "kele_defends":
        m.reachable(
            "sanity: Келе-защитник избавлена от закрытия",
            And(v.stage == "payment", v.has_def, v.defender == Card.kele, v.mod_def),
            cites=["539.4.1"],
        )
    if "raider" in names:
        m.reachable(
            "sanity: карта с «2 раза за ход» атаковала дважды",
            v.uses[Card.raider] == 2,
            cites=["539.1.3"],
        )
