"""Properties of Berserk. Heroes section 111: features, abilities, effects, the Очередь."""

from __future__ import annotations

from typing import Callable

from ruleproof.dsl import And, ForAll, Implies, Model, Not, Or, Term, Transition

__all__ = ["register"]


def register(m: Model) -> None:
    """Attach the section 111 properties to an ``abilities111`` model."""
    v, s = m.v, m.sorts
    Creature, Ability, Slot = s.Creature, s.Ability, s.Slot
    order = str(m.params["order"])
    slots = list(Slot)

    def has(c: Term, ab: Term) -> Term:
        """111.2: abilities = printed features + applied effects (+ the static Знамя), minus removals."""
        return And(
            Not(v.lost[c, ab]),
            Or(
                v.printed[c, ab],
                v.grants[c, ab] >= 1,
                v.copied[ab] if c.name == "talos" else False,
                v.static_opyt if (c.name, ab.name) == ("vail", "opyt") else False,
            ),
        )

    def post_has(t: Transition, c: Term, ab: Term) -> Term:
        return t.post(has(c, ab))

    def effects_unchanged(t: Transition) -> Term:
        return And(
            *(
                And(t.post(v.grants[c, ab]) == v.grants[c, ab], t.post(v.lost[c, ab]) == v.lost[c, ab])
                for c in Creature
                for ab in Ability
            ),
            *(t.post(v.copied[ab]) == v.copied[ab] for ab in Ability),
        )

    taken = (
        Or(*(And(v.qlen == i + 1, v.queue[sl] == "remove") for i, sl in enumerate(slots)))
        if order == "lifo"
        else v.queue[slots[0]] == "remove"
    )

    m.action_property(
        "111.3: после удаления способности не остаётся ни одного её экземпляра",
        "resolve",
        lambda t: Implies(
            taken,
            And(t.post(v.grants[Creature.vail, Ability.ryvok]) == 0, Not(post_has(t, Creature.vail, Ability.ryvok))),
        ),
        cites=["111.3"],
        doc="Вайл with Рывок from the hero and from a second effect loses both to one removal.",
    )
    m.invariant(
        "111.3: эффекты этого примера дают и удаляют только Рывок Вайла",
        ForAll(
            Creature,
            lambda c: ForAll(
                Ability,
                lambda ab: Implies(
                    Not(And(c == Creature.vail, ab == Ability.ryvok)),
                    And(v.grants[c, ab] == 0, Not(v.lost[c, ab])),
                ),
            ),
        ),
        cites=["111.3"],
        doc="A scenario fact that makes the 111.3 properties inductive for the symbolic engines.",
    )
    granted = (
        Or(*(And(v.qlen == i + 1, Or(v.queue[sl] == "grant_hero", v.queue[sl] == "grant_horn"))
             for i, sl in enumerate(slots)))
        if order == "lifo"
        else Or(v.queue[slots[0]] == "grant_hero", v.queue[slots[0]] == "grant_horn")
    )
    m.action_property(
        "111.3: из эффектов, дающих и удаляющих способность, побеждает наложенный последним",
        "resolve",
        lambda t: And(
            Implies(granted, post_has(t, Creature.vail, Ability.ryvok)),
            Implies(taken, Not(post_has(t, Creature.vail, Ability.ryvok))),
        ),
        cites=["111.3"],
        doc="Whatever effects on Рывок were applied before, the one being applied now (the last) decides: "
        "a grant leaves Вайл with Рывок, a removal without it.  Stated on the order of application "
        "(the Очередь's resolutions), not on a record the model keeps of it.",
    )
    def cost_paid(tapped: str) -> Callable[[Transition], Term]:
        return lambda t: And(Not(v[tapped]), t.post(v[tapped]))

    costs = (("activate_hero", "hero_tapped", "героя"), ("activate_caster", "caster_tapped", "Заклинателя"))
    for fam, tapped, who in costs:
        m.action_property(
            f"111.2 (таблица): стоимость активируемой способности оплачивается при активации (закрыть {who})",
            fam,
            cost_paid(tapped),
            cites=["111.2"],
            doc="«Оплата: эффект»: the cost (closing the source) is paid when the ability is activated, and "
            "an ability whose cost cannot be paid (its source already closed) is not activated.",
        )
    m.action_property(
        "начало хода: закрытые карты открываются, ход считается",
        "start_turn",
        lambda t: And(Not(t.post(v.hero_tapped)), Not(t.post(v.caster_tapped)), t.post(v.turn_no) == v.turn_no + 1),
        cites=["506.4"],
        doc="At the start of a turn the closed cards open (notes: untapping at turn start, [I]); the turn is "
        "counted against the scenario's number of turns.",
    )
    m.action_property(
        "111.4: новый ход начинается, только когда Очередь пуста",
        "start_turn",
        lambda t: v.qlen == 0,
        cites=["111.4"],
        doc="Abilities in the Очередь resolve before the game moves on to the next turn.",
    )
    m.action_property(
        "карта выходит в игру, только если её там нет (Знамя)",
        "banner_enters",
        lambda t: And(Not(v.banner), t.post(v.banner)),
        cites=["111.2"],
    )
    m.action_property(
        "карта покидает игру, только если она в игре (Знамя)",
        "banner_leaves",
        lambda t: And(v.banner, Not(t.post(v.banner))),
        cites=["111.2"],
    )
    m.action_property(
        "Талос выходит в игру один раз",
        "play_talos",
        lambda t: And(Not(v.talos_in_play), t.post(v.talos_in_play)),
        cites=["111.1"],
        doc="The scenario has one Талос: once in play, it does not enter play again (nor its trigger).",
    )
    def copying(src: str) -> Term:
        item = f"copy_{src}"
        if order == "lifo":
            return Or(*(And(v.qlen == i + 1, v.queue[sl] == item) for i, sl in enumerate(slots)))
        return v.queue[slots[0]] == item

    m.action_property(
        "111.1: копирование даёт только напечатанные особенности",
        "resolve",
        lambda t: And(*(Implies(copying(c.name), And(*(t.post(v.copied[ab]) == v.printed[c, ab] for ab in Ability)))
                        for c in (Creature.berserk, Creature.vail))),
        cites=["111.1"],
        doc="Талос copying a creature gets exactly the features printed on that creature: Берсерк's "
        "Направленный удар, never the Рывок Вайл got from an effect, and nothing printed on another card.",
    )
    for fam in ("activate_hero", "activate_caster", "start_turn", "play_talos"):
        m.action_property(
            f"111.2: эффект способности ({fam}) применяется только после разрешения в Очереди",
            fam,
            effects_unchanged,
            cites=["111.2", "111.4"],
            doc="Activated and triggered abilities go into the Очередь; their effects apply on resolution.",
        )
    m.invariant(
        "111.2: постоянная способность действует, пока её источник в игре",
        v.static_opyt == v.banner,
        cites=["111.2"],
        doc="A static ability is not played: it applies as soon as its source appears, and its effect "
        "vanishes with the source.",
    )
    m.action_property(
        "111.2: обязательная срабатывающая способность всегда попадает в Очередь",
        "start_turn",
        lambda t: And(
            t.post(v.qlen) == v.qlen + 1,
            Or(*(And(v.qlen == i, t.post(v.queue[sl]) == "grant_horn") for i, sl in enumerate(slots))),
        ),
        cites=["111.2", "111.4"],
    )
    m.invariant(
        "111.4: Очередь заполнена без пропусков",
        And(*(Implies(v.qlen <= i, v.queue[sl] == "none") for i, sl in enumerate(slots)),
            *(Implies(v.qlen > i, v.queue[sl] != "none") for i, sl in enumerate(slots))),
        cites=["111.4"],
    )
    m.reachable(
        "sanity: у Вайла два экземпляра Рывка",
        v.grants[Creature.vail, Ability.ryvok] == 2,
        cites=["111.3"],
    )
    if m.params.get("vail_prints"):
        m.reachable(
            "sanity: Вайл потерял напечатанный Рывок",
            And(v.printed[Creature.vail, Ability.ryvok], v.lost[Creature.vail, Ability.ryvok]),
            cites=["111.3"],
        )
    m.reachable(
        "sanity: Талос скопировал Направленный удар",
        has(Creature.talos, Ability.napr),
        cites=["111.1"],
    )
