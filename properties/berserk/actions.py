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

from typing import Any, Callable

from ruleproof.dsl import And, ForAll, If, Implies, Min, Model, Not, Or, Term, Transition

__all__ = ["register"]


def register(m: Model) -> None:
    """Attach the section 539 / 526.1 properties to an ``actions`` model."""
    v, s = m.v, m.sorts
    Card = s.Card
    last_use_taps = bool(m.params["last_use_taps"])
    interrupted_acted = bool(m.params["interrupted_acted"])
    strikes_together = bool(m.params["strikes_together"])
    assault_defence_free = bool(m.params["assault_defence_free"])
    defender_acts = bool(m.params["defender_acts"])
    no_tap_defence = bool(m.params["no_tap_defence"])
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
        Implies(v.stage == "idle",
                ForAll(Card, lambda c: And(Not(v.rsv_tap[c]), Not(v.rsv_move[c]), Not(v.rsv_use[c])))),
        cites=["539.2"],
    )

    def holder(c: Term) -> Term:
        return Or(v.actor == c, And(v.has_def, v.defender == c))

    m.invariant(
        "539.2: ресурсы зарезервированы только действующей картой и защитником",
        ForAll(
            Card,
            lambda c: And(
                Implies(v.rsv_tap[c], And(v.stage != "idle", holder(c))),
                Implies(v.rsv_move[c], And(v.actor == c, v.kind == "move", v.move[c] >= 1, Not(v.acted[c]))),
                Implies(v.rsv_use[c], And(v.actor == c, v.kind == "attack", v.uses[c] < v.limit[c])),
            ),
        ),
        cites=["539.2"],
        doc="Reserved resources belong to the action in flight; a response may take one away (539.2: the "
        "legality check then interrupts the action).",
    )
    m.invariant(
        "539.4: модификатор ресурсов существует только у выполняющегося нападения",
        And(
            Implies(v.mod_att, And(v.kind == "attack", Or(v.stage == "counter", v.stage == "trig_d",
                                                           v.stage == "heal_d", v.stage == "payment"))),
            Implies(v.mod_def, v.stage == "payment"),
            Implies(v.has_def, And(v.kind == "attack", v.stage != "idle", v.side[v.defender] != v.active)),
            Implies(v.stage != "idle", v.side[v.actor] == v.active),
            Implies(v.blocked, Or(And(v.kind == "ability", Or(v.stage == "declared", v.stage == "payment")),
                                  And(v.kind == "attack", v.stage != "idle", v.stage != "declared",
                                      v.stage != "strike", v.stage != "trig_a"))),
        ),
        cites=["539.4", "539.4.1"],
    )

    # ---------------------------------------------------------------- 539.2-539.4.1: payment
    # The payment stage, clause by clause of the rule text (review W1: not one formula mirroring the model's).
    # A card's role: the acting card of an attack, of a tap ability, or a defender (whose counter-strike is a
    # strike too, 539.4.1).  Each clause says whether a card in that role with that feature pays the tap it
    # reserved; together they cover every feature in every role that reserves a tap.
    def attacker(c: Term) -> Term:
        return And(v.actor == c, v.kind == "attack")

    def defending(c: Term) -> Term:
        return And(v.actor != c, v.has_def, v.defender == c)

    def reserved_tap_paid(name: str, cites: list[str], doc: str, who: Callable[[Term], Term],
                          pays: Callable[[Term], Term | bool]) -> None:
        m.action_property(
            name, "pay",
            lambda t: ForAll(Card, lambda c: Implies(And(v.rsv_tap[c], Not(v.tapped[c]), who(c)),
                                                     t.post(v.tapped[c]) == pays(c))),
            cites=cites, doc=doc,
        )

    reserved_tap_paid(
        "539.2: зарезервированное закрытие карты без особенности 539 оплачивается", ["539.2"],
        "«Карта с такой особенностью не оплачивает указанные ресурсы»: a card without such a feature pays.",
        lambda c: v.feat[c] == "none", lambda c: True)
    reserved_tap_paid(
        "539.2: способность с закрытием оплачивается закрытием", ["539.2"],
        "The features of 539.1 name attacks; the tap of a tap ability is paid.",
        lambda c: And(v.actor == c, v.kind == "ability"), lambda c: True)
    reserved_tap_paid(
        "539.1.1: «Не закрывается после атаки»: атаковавшая карта не закрывается; защитник "
        + ("тоже не закрывается (его ответный удар — атака)" if no_tap_defence else "закрывается"), ["539.1.1"],
        "The text names the card's attack; whether its counter-strike as a defender counts (539.4.1: a counter-strike "
        "is an удар/атака) is the rule parameter no_tap_defence (review F8 [U]; both settings are checked).",
        lambda c: v.feat[c] == "no_tap_attack", lambda c: Not(Or(attacker(c), And(no_tap_defence, defending(c)))))
    reserved_tap_paid(
        "539.1.2: «Закрывается после нападения»: карта закрывается после своего нападения, "
        + ("не после защиты" if assault_defence_free else "и после защиты, как любая карта"),
        ["539.1.2"],
        "The card taps after an нападение it makes; whether defending taps it is the rule parameter "
        "assault_defence_free (review F5 [U]: the text names only its нападение; both settings are checked).",
        lambda c: v.feat[c] == "taps_after_assault", lambda c: Or(attacker(c), Not(assault_defence_free)))
    reserved_tap_paid(
        "539.1.3: «Может атаковать X раз за ход»: закрывается только X-я атака (если last_use_taps)", ["539.1.3"],
        "The attacks before the X-th do not tap; whether the X-th does is the rule parameter last_use_taps [U]; "
        "as a defender the card pays its tap.",
        lambda c: v.feat[c] == "x_per_turn",
        lambda c: Or(Not(attacker(c)), And(last_use_taps, v.uses[c] + 1 == v.limit[c])))
    reserved_tap_paid(
        "539.1.3: «Может атаковать любое количество раз за ход»: атака не закрывает карту; защитник закрывается",
        ["539.1.3"],
        "The other form of 539.1.3 (review F11): no attack taps the card, the first or any later one; as a defender "
        "the card pays its tap.",
        lambda c: v.feat[c] == "any_per_turn", lambda c: Not(attacker(c)))
    reserved_tap_paid(
        "539.4: Келе не закрывается после атаки, если излечение оставило её без ран", ["539.4"],
        "«если после этого у Келе нет ран — не закрывается после этой атаки»: the modifier the resolved heal "
        "set (tied to the wounds after the heal by the resolution property) waives the attacker's tap.",
        lambda c: And(attacker(c), heal_feature(c)), lambda c: Not(v.mod_att))
    reserved_tap_paid(
        "539.4.1: защитник «при ударе» не закрывается после излечения без ран; «при нападении» закрывается",
        ["539.4.1"],
        "«при ударе/атаке» (но не «при нападении») modifies the resources of a defender's counter-strike too.",
        lambda c: And(defending(c), heal_feature(c)),
        lambda c: Not(And(v.feat[c] == "heal_strike", v.mod_def)))
    def acts_now(t: Transition, c: Term) -> Term:
        """539.3: the card that performed an attack or an ability, unless its feature, which spared it the tap it
        reserved, says otherwise («если иного не указано в тексте особенности», review F11: the card data
        ``unacted``); with defender_acts (review F6 [U]), also a defender whose reserved tap the payment stage left
        unpaid (a feature waived it)."""
        spared = And(v.rsv_tap[c], Not(v.tapped[c]), Not(t.post(v.tapped[c])))
        performed = And(v.actor == c, v.kind != "move", Not(And(v.unacted[c], spared)))
        if not defender_acts:
            return performed
        return Or(performed, And(defending(c), v.rsv_tap[c], Not(v.tapped[c]), Not(t.post(v.tapped[c]))))

    m.action_property(
        "539.2: этап оплаты оплачивает только зарезервированное: движение, использование «за ход»",
        "pay",
        lambda t: ForAll(Card, lambda c: And(
            Implies(Or(Not(v.rsv_tap[c]), v.tapped[c]), t.post(v.tapped[c]) == v.tapped[c]),
            t.post(v.uses[c]) == v.uses[c] + If(v.rsv_use[c], 1, 0),
            Implies(acts_now(t, c), t.post(v.move[c]) == 0),  # 539.3
            Implies(Not(acts_now(t, c)), t.post(v.move[c]) == v.move[c] - If(v.rsv_move[c], 1, 0)),
        )),
        cites=["539.2", "539.3", "506.5"],
        doc="Only reserved resources are paid: a card that reserved no tap keeps its state, a movement point "
        "is spent by the move that reserved it, a use of «X раз за ход» is counted; the card that performed "
        "an attack or an ability loses all its movement points (539.3).",
    )
    m.action_property(
        "539.3: после этапа оплаты подействовавшей считается карта, выполнившая нападение или способность"
        + (", и защитник, чьё закрытие отменила особенность" if defender_acts else "; защитник — нет"),
        "pay",
        lambda t: ForAll(Card, lambda c: t.post(v.acted[c]) == Or(v.acted[c], acts_now(t, c))),
        cites=["539.3"],
        doc="«карта считается подействовавшей после первого совершения действия»; whether a defence (a sudden "
        "action) whose tap a feature waived counts is the rule parameter defender_acts (review F6 [U]; both "
        "settings are checked).",
    )
    m.action_property(
        "539.3: подействовавшая карта не назначается защитником",
        "assign_defender",
        lambda t, d: Not(v.acted[d]),
        cites=["539.3"],
        doc="Assigning a defender is a sudden action (notes): an acted card «не может заявлять другие действия в "
        "этом ходу».",
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
        Not(And(v.feat[If(v.has_def, v.defender, v.target)] == "heal_assault", v.mod_def)),
        cites=["539.4.1"],
    )
    m.action_property(
        "Блокирование (RP 3.1-1): заблокированная способность всё равно оплачивается",
        "pay",
        lambda t: ForAll(Card, lambda c: Implies(And(v.actor == c, v.kind == "ability", v.blocked, v.rsv_tap[c]),
                                                 t.post(v.tapped[c]))),
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
        lambda t, c, tg: Implies(v.acted[c], Or(And(v.feat[c] == "x_per_turn", v.uses[c] < v.limit[c]),
                                                v.feat[c] == "any_per_turn")),
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

    # ---------------------------------------------------------------- the action in flight, step by step
    def alive(c: Term) -> Term:
        """A creature is in play while its wounds are fewer than its lives (one with as many is destroyed)."""
        return v.wounds[c] < v.lives[c]

    def post_alive(t: Transition, c: Term) -> Term:
        return t.post(v.wounds[c]) < v.lives[c]

    def declared(k: str) -> Callable[[Transition, Term, Term], Term]:
        return lambda t, c, tg: And(
            v.stage == "idle", v.side[c] == v.active, alive(c), alive(tg), v.side[tg] != v.side[c],
            t.post(v.stage) == "declared", t.post(v.actor) == c, t.post(v.target) == tg, t.post(v.kind) == k,
            Not(t.post(v.has_def)), Not(t.post(v.blocked)), Not(t.post(v.mod_att)), Not(t.post(v.mod_def)),
        )

    for fam, k in (("declare_attack", "attack"), ("declare_ability", "ability")):
        m.action_property(
            f"заявка ({fam}): действует живая карта активного игрока на живую вражескую цель; заявка записана",
            fam,
            declared(k),
            cites=["539.2"],
            doc="One action at a time, declared by the active player's creature in play against an enemy "
            "creature in play; what was declared (who, against whom, which kind) is what is then performed.",
        )
    m.action_property(
        "заявка движения: живая карта активного игрока движется сама; заявка записана",
        "declare_move",
        lambda t, c: And(
            v.stage == "idle", v.side[c] == v.active, alive(c),
            t.post(v.stage) == "declared", t.post(v.actor) == c, t.post(v.kind) == "move", t.post(v.target) == c,
            Not(t.post(v.has_def)), Not(t.post(v.mod_att)), Not(t.post(v.mod_def)),
        ),
        cites=["506.3", "539.2"],
    )
    m.action_property(
        "добивание заявляется только на цель, у которой осталось не больше жизней, чем значение добивания",
        "declare_ability",
        lambda t, c, tg: And(v.finish[c] >= 1, v.lives[tg] - v.wounds[tg] <= v.finish[c]),
        cites=["539.2"],
        doc="The finishing ability's text: «добивание на N» destroys a creature with at most N lives left.",
    )
    m.action_property(
        "защитник: живая карта противника атакуемого, не сама цель, назначается на заявленное нападение",
        "assign_defender",
        lambda t, d: And(
            v.stage == "declared", v.kind == "attack", Not(v.has_def),
            v.side[d] != v.active, v.target != d, alive(d),
            t.post(v.has_def), t.post(v.defender) == d,
        ),
        cites=["539.4.1"],
        doc="A defender stands in for the attacked creature: another open creature of the attacked "
        "player, one per attack.",
    )
    m.action_property(
        "ответ: быстрый эффект противника излечивает свою раненую карту ровно на 1, один раз за действие",
        "respond_heal",
        lambda t, tg: And(
            v.stage == "declared", v.kind == "ability", Not(v.responded), v.side[tg] != v.active,
            v.wounds[tg] >= 1, alive(tg),
            t.post(v.wounds[tg]) == v.wounds[tg] - 1, t.post(v.responded),
        ),
        cites=["526.1"],
        doc="The scenario's fast effect: the opponent of the active player, in response to a declared "
        "ability, heals one wounded creature of theirs by 1 (once per action).",
    )
    if m.params["roster"] == "static":
        m.action_property(
            "ответ «закрыть существо»: противник закрывает открытую действующую карту, один раз за действие",
            "respond_tap",
            lambda t, c: And(
                v.stage == "declared", v.actor == c, v.side[c] == v.active, Not(v.responded), Not(v.tapped[c]),
                t.post(v.tapped[c]), t.post(v.responded), t.post(v.stage) == "declared",
            ),
            cites=["539.2"],
            doc="The scenario's fast effect: in response to a declared action, the opponent taps the acting "
            "creature (once per action); the action stays on the stack until the legality check.",
        )
    m.action_property(
        "блокирование (RP 3.1-1): заявленная способность блокируется до выполнения",
        "respond_block",
        lambda t: And(v.stage == "declared", v.kind == "ability", Not(v.blocked), t.post(v.blocked)),
        cites=["RP 3.1-1 блокирование"],
    )

    def legal_now() -> Term:
        """526.1: an attack stays legal while the attacker and its target are in play; a finishing ability
        while its target is in play with no more lives left than the ability finishes.  539.2: the resources
        the action needs are checked too: an attack and a tap ability need the acting card open (its tap is
        reserved even when a feature waives paying it), a move needs it open with a movement point (506.3)."""
        a = v.actor
        return If(
            v.kind == "attack",
            And(alive(a), alive(v.target), Not(v.tapped[a])),
            If(v.kind == "ability",
               And(alive(v.target), v.lives[v.target] - v.wounds[v.target] <= v.finish[a], Not(v.tapped[a])),
               And(Not(v.tapped[a]), v.move[a] >= 1)),
        )

    m.action_property(
        "526.1: прерывается только заявленное действие, ставшее нелегальным, и оно уходит из стека",
        "interrupt",
        lambda t: And(v.stage == "declared", Not(legal_now()), t.post(v.stage) == "idle"),
        cites=["526.1"],
    )
    m.action_property(
        "526.1: выполняется только легальное заявленное действие",
        "perform",
        lambda t: And(v.stage == "declared", legal_now()),
        cites=["526.1"],
    )
    m.action_property(
        "добивание: выполненная незаблокированная способность уничтожает цель; заблокированная ничего не делает",
        "perform",
        lambda t: ForAll(Card, lambda c: t.post(v.wounds[c]) == If(
            And(v.kind == "ability", Not(v.blocked), v.target == c), v.lives[c], v.wounds[c])),
        cites=["RP 3.1-1 блокирование"],
        doc="A performed finishing ability destroys its target; a blocked one applies no effect (it is "
        "still paid); an attack's wounds come from the strikes.",
    )

    def victim() -> Term:
        return If(v.has_def, v.defender, v.target)

    closed_counterstrikes = bool(m.params["closed_counterstrikes"])

    def strikes_back() -> Term:
        return And(alive(victim()), Or(closed_counterstrikes, Not(v.tapped[victim()])))

    def back_wounds(c: Term) -> Term:
        """The attacker ``c``'s wounds after the counter-strike of the attacked creature (if it strikes back)."""
        return Min(v.wounds[c] + If(strikes_back(), v.strength[victim()], 0), v.lives[c])

    m.action_property(
        "удар: жертва (защитник, иначе цель) получает раны, равные силе нападающего"
        + ("; ответный удар наносится одновременно" if strikes_together else "; ответный удар — позже"),
        "strike",
        lambda t: And(v.stage == "strike", ForAll(Card, lambda c: t.post(v.wounds[c]) == If(
            victim() == c, Min(v.wounds[c] + v.strength[v.actor], v.lives[c]),
            If(And(strikes_together, v.actor == c), back_wounds(c), v.wounds[c])))),
        cites=["539.4.1"],
        doc="Whether the strike and the counter-strike are dealt together, the «при ударе» triggers resolving after "
        "both, is the rule parameter strikes_together (review F4 [U]; both settings are checked).",
    )

    m.action_property(
        "539.4.1: «при ударе» атакованной карты срабатывает на её ответный удар, защитник она или цель",
        "counter",
        lambda t: And(
            Implies(And(strikes_back(), v.feat[victim()] == "heal_strike"), t.post(v.stage) == "trig_d"),
            Implies(Not(And(strikes_back(), v.feat[victim()] == "heal_strike")), t.post(v.stage) == "payment"),
        ),
        cites=["539.4.1"],
        doc="A counter-strike is a strike (удар), so a «при ударе» trigger of the creature that deals it fires "
        "whether it defends or is the attacked target (review F7); «при нападении» does not (539.4.1).",
    )
    m.action_property(
        "ответный удар: жертва, оставшаяся в игре, наносит нападающему раны, равные своей силе"
        + ("" if closed_counterstrikes else ", если она не закрыта")
        + (" (вместе с ударом; здесь ран не прибавляется)" if strikes_together else ""),
        "counter",
        lambda t: And(v.stage == "counter", ForAll(Card, lambda c: Implies(v.actor == c, t.post(v.wounds[c]) == (
            v.wounds[c] if strikes_together else back_wounds(c))))),
        cites=["539.4.1"],
        doc="The attacked creature (the defender, else the target) strikes back if it is still in play.  Whether "
        "a closed creature strikes back is the rule parameter closed_counterstrikes (review F9: no stored source "
        "settles it; both settings are checked).",
    )

    # 539.4: «Такие особенности являются интерактивными, заявляются и выполняются по общим правилам»: the heal
    # trigger is declared (or declined, «может»), may be answered, and resolves; its condition is read then.
    def declared_heal(heal_stage: str, skip: str, mod: Any) -> Callable[[Transition], Term]:
        def prop(t: Transition) -> Term:
            accept = t.choice("излечиться")  # «может»: the controller chooses
            return And(
                Implies(accept, t.post(v.stage) == heal_stage), Implies(Not(accept), t.post(v.stage) == skip),
                Not(t.post(mod)),
                *(t.post(v.wounds[c]) == v.wounds[c] for c in Card),
            )
        return prop

    def resolved_heal(heal_stage: str, who: Term, mod: Any) -> Callable[[Transition], Term]:
        def prop(t: Transition) -> Term:
            per_card = []
            for c in Card:
                w, after = v.wounds[c], t.post(v.wounds[c])
                takes = And(Not(v.blocked), alive(c))  # a blocked ability applies no effect (RP 3.1-1)
                per_card.append(Implies(who == c, And(
                    after == If(takes, If(w >= 2, w - 2, 0), w),  # «излечиться на 2»
                    t.post(mod) == And(takes, after == 0),  # «если после этого у Келе нет ран», read now
                )))
            return And(v.stage == heal_stage, *per_card)
        return prop

    for fam, heal_stage, skip, who, mod, cite, whose in (
            ("trigger_attacker", "heal_a", "counter", v.actor, v.mod_att, "539.4", "Келе"),
            ("trigger_defender", "heal_d", "payment", If(v.has_def, v.defender, v.target), v.mod_def, "539.4.1",
             "Келе на ответном ударе")):
        m.action_property(
            f"{cite}: {whose}: срабатывание излечения заявляется (или отклоняется) и ничего не меняет до разрешения",
            fam,
            declared_heal(heal_stage, skip, mod),
            cites=[cite],
            doc="539.4: a modifying feature is interactive, declared and performed under the general rules: "
            "accepting the optional heal («может») declares it; nothing happens until it resolves.",
        )
        m.action_property(
            f"{cite}: {whose} излечивается на 2 при разрешении; модификатор — только если после этого нет ран",
            f"resolve_heal_{heal_stage[-1]}",
            resolved_heal(heal_stage, who, mod),
            cites=[cite],
            doc="«При ударе может излечиться на 2, если после этого у Келе нет ран — не закрывается после этой "
            "атаки»: when the declared heal resolves (unless blocked), the waiver is set exactly when it left "
            "no wounds, counting the wounds a response dealt in between.",
        )
    heal_roster = m.params["roster"] in ("kele_attacks", "kele_defends")
    if heal_roster:
        def healer() -> Term:
            return If(v.stage == "heal_a", v.actor, victim())

        m.action_property(
            "539.4: ответ на излечение: противник наносит излечивающейся карте 1 рану, один раз за действие",
            "respond_wound",
            lambda t: And(
                Or(v.stage == "heal_a", v.stage == "heal_d"), Not(v.responded), t.post(v.responded),
                t.post(v.stage) == v.stage, alive(healer()),
                *(t.post(v.wounds[c]) == If(healer() == c, v.wounds[c] + 1, v.wounds[c]) for c in Card),
            ),
            cites=["539.4"],
            doc="The scenario's fast effect answers the declared heal before it resolves: it deals 1 wound to the "
            "healing creature, which must be in play (one destroyed by the counter-strike dealt together with the "
            "strike still has its «при ударе» heal declared, but no effect targets it).",
        )
        m.action_property(
            "539.4: излечение можно заблокировать, пока оно заявлено",
            "block_heal",
            lambda t: And(Or(v.stage == "heal_a", v.stage == "heal_d"), Not(v.blocked), t.post(v.blocked),
                          t.post(v.stage) == v.stage),
            cites=["539.4", "RP 3.1-1 блокирование"],
        )
    m.action_property(
        "539.2: этап оплаты наступает только после выполнения (и срабатываний)",
        "pay",
        lambda t: And(v.stage == "payment", t.post(v.stage) == "idle"),
        cites=["539.2", "539.4"],
        doc="«Это произойдет до Этапа оплаты»: the payment stage comes after the action is performed and "
        "its triggers resolved; then the action is over.",
    )
    m.action_property(
        "конец хода: ход переходит к другому игроку; движение восполняется, счётчики «за ход» обнуляются",
        "end_turn",
        lambda t: And(
            v.stage == "idle", t.post(v.active) != v.active,
            ForAll(Card, lambda c: And(
                t.post(v.move[c]) == v.moves[c], t.post(v.uses[c]) == 0, Not(t.post(v.acted[c])),
                Implies(v.side[c] != v.active, Not(t.post(v.tapped[c]))),
                Implies(v.side[c] == v.active, t.post(v.tapped[c]) == v.tapped[c]),
            )),
        ),
        cites=["506.4", "539.1.3", "539.3"],
        doc="506.4: movement refills at the start of a turn; «X раз за ход» and «подействовавшая» last for "
        "the turn; the new active player's creatures open ([I], notes).",
    )

    # ---------------------------------------------------------------- sanity targets (per roster)
    if "kele" in names and m.params["roster"] != "kele_defends" and not strikes_together:
        m.reachable(
            "sanity: Келе подействовала, не закрылась и снова ранена",
            And(v.stage == "idle", v.acted[Card.kele], Not(v.tapped[Card.kele]), v.wounds[Card.kele] >= 1),
            cites=["539.4"],
        )
    if m.params["roster"] == "kele_attacks" and strikes_together:
        m.reachable(
            "sanity: Келе получила ответный удар до излечения: излечилась, но с раной, и закрылась",
            And(v.stage == "idle", v.acted[Card.kele], v.tapped[Card.kele], v.wounds[Card.kele] == 1,
                v.wounds[Card.foe] >= 1),
            cites=["539.4"],
            doc="Review F4: with both strikes dealt together, Келе with 2 wounds has 3 when her heal resolves.",
        )
    if m.params["roster"] == "kele_attacks":
        m.reachable(
            "sanity: ответ ранил Келе до разрешения излечения, и модификатор не наложен",
            And(v.stage == "counter", v.responded, Not(v.mod_att), v.wounds[Card.kele] >= 1),
            cites=["539.4"],
        )
        m.reachable(
            "sanity: излечение Келе заблокировано",
            And(v.stage == "heal_a", v.blocked),
            cites=["539.4"],
        )
    if "kele" in names and m.params["roster"] == "kele_defends":
        m.reachable(
            "sanity: Келе-защитник избавлена от закрытия",
            And(v.stage == "payment", v.has_def, v.defender == Card.kele, v.mod_def),
            cites=["539.4.1"],
        )
    if "kele" in names and m.params["roster"] == "kele_defends":
        m.reachable(
            "sanity: Келе, атакованная без защитника, излечивается на своём ответном ударе",
            And(v.stage == "heal_d", Not(v.has_def), v.target == Card.kele),
            cites=["539.4.1"],
            doc="Review F7: the «при ударе» trigger of an attacked creature that is not a defender fires.",
        )
    if "finisher" in names:
        m.reachable(
            "sanity: заявленное добивание стало нелегальным (ответ излечил цель) и будет прервано",
            And(v.stage == "declared", v.kind == "ability", v.responded,
                v.lives[v.target] - v.wounds[v.target] > v.finish[v.actor]),
            cites=["526.1"],
        )
        m.reachable(
            "sanity: заблокированная способность дошла до этапа оплаты",
            And(v.stage == "payment", v.kind == "ability", v.blocked),
            cites=["RP 3.1-1 блокирование"],
        )
    if m.params["roster"] == "static":
        m.reachable(
            "sanity: ответ закрыл нападающую карту, и нападение будет прервано",
            And(v.stage == "declared", v.kind == "attack", v.tapped[v.actor], v.feat[v.actor] == "no_tap_attack"),
            cites=["539.2", "526.1"],
        )
    if m.params["roster"] == "static":
        m.reachable(
            "sanity: атакованная закрытая карта в игре доходит до ответного удара",
            And(v.stage == "counter", v.tapped[victim()], alive(victim())),
            cites=["539.4.1"],
            doc="Review F9: the counter-strike of a closed creature happens in the checked scenario.",
        )
    if m.params["roster"] == "defence":
        for name, label, cite, why in (("sentry", "Часовой", "539.1.2", "F5"), ("steady", "Стойкий", "539.1.1", "F8")):
            m.reachable(
                f"sanity: {label} защищает и доходит до этапа оплаты",
                And(v.stage == "payment", v.has_def, v.defender == Card[name], v.rsv_tap[Card[name]]),
                cites=[cite],
                doc=f"Review {why}: the card with this feature defends, so its payment as a defender is checked.",
            )
        if defender_acts:
            m.reachable(
                "sanity: защитник подействовал в чужой ход (его закрытие отменено особенностью)",
                And(v.stage == "idle", v.side[Card.steady] != v.active, v.acted[Card.steady],
                    Not(v.tapped[Card.steady])),
                cites=["539.3"],
                doc="Review F6: a card that only defended counts as acted.",
            )
    if m.params["roster"] == "any_times":
        berserker, tireless = Card.berserker, Card.tireless
        m.reachable(
            "sanity: подействовавший Берсерк («любое количество раз») заявляет ещё одно нападение",
            And(v.stage == "declared", v.kind == "attack", v.actor == berserker, v.acted[berserker],
                v.wounds[tireless] >= 3),
            cites=["539.1.3"],
            doc="Review F11: after three attacks (the former cap of X) the card still attacks: «любое количество раз».",
        )
        m.reachable(
            "sanity: атака Неутомимого доходит до этапа оплаты, открытой картой",
            And(v.stage == "payment", v.kind == "attack", v.actor == tireless, Not(v.tapped[tireless])),
            cites=["539.3"],
            doc="Review F11: the payment where 539.3's exception applies (the feature's text says the card is not "
            "подействовавшая) happens in the checked scenario.",
        )
    if "raider" in names and m.params["roster"] == "twice":
        m.reachable(
            "sanity: карта с «2 раза за ход» атаковала дважды",
            v.uses[Card.raider] == 2,
            cites=["539.1.3"],
        )
