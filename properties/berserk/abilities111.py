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
    statics = bool(m.params.get("statics"))
    vail, opyt = Creature.vail, Ability.opyt
    slots = list(Slot)

    # the table, static abilities: «Применяются сразу после появления источника… Создаваемые эффекты пропадают в
    # случае исчезновения самой способности или источника способности»: Знамя's static ability gives Вайл Опыт в
    # атаке exactly while Знамя is in play with that ability (the game state, not the model's record of the grant)
    banner_gives_opyt = And(v.banner, Not(v.banner_silenced))

    def has(c: Term, ab: Term) -> Term:
        """111.2: abilities = printed features + applied effects (+ the static Знамя), minus removals."""
        return And(
            Not(v.lost[c, ab]),
            Or(
                v.printed[c, ab],
                v.grants[c, ab] >= 1,
                v.copied[ab] if c.name == "talos" else False,
                banner_gives_opyt if (c.name, ab.name) == ("vail", "opyt") else False,
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
        "111.3: эффекты этого примера дают только Рывок Вайла и удаляют только Рывок или Опыт в атаке Вайла",
        ForAll(
            Creature,
            lambda c: ForAll(
                Ability,
                lambda ab: And(
                    Implies(Not(And(c == Creature.vail, ab == Ability.ryvok)), v.grants[c, ab] == 0),
                    Implies(Not(And(c == Creature.vail, Or(ab == Ability.ryvok, ab == Ability.opyt))),
                            Not(v.lost[c, ab])),
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
        "111.2 (таблица): активируемая способность активируется, только пока её источник в игре (Свирепый резак)",
        "activate_hero",
        lambda t: v.hero_in_play,
        cites=["111.2"],
        doc="«Активируются игроком, контролирующий источник»: a card out of play has no controller using it.",
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
    # the table, static abilities: «Не играются… Применяются сразу после появления источника… Создаваемые эффекты
    # пропадают в случае исчезновения самой способности или источника способности»; Вайл's Опыт в атаке has no
    # source but Знамя's static ability
    m.action_property(
        "111.2: постоянная способность применяется сразу, как её источник появляется (Знамя: Вайл имеет Опыт)",
        "banner_enters",
        lambda t: post_has(t, vail, opyt),
        cites=["111.2", "111.3"],
        doc="Not played and never queued: the effect applies when Знамя enters play; applied now, it is also the "
        "last effect on Вайл's Опыт (111.3), so an earlier removal does not hold it back.",
    )
    m.action_property(
        "111.2: эффект постоянной способности пропадает вместе с источником (Знамя покидает игру)",
        "banner_leaves",
        lambda t: Not(post_has(t, vail, opyt)),
        cites=["111.2"],
    )
    m.invariant(
        "111.2: эффект постоянной способности Знамени действует ровно пока Знамя в игре со своей способностью",
        v.static_opyt == banner_gives_opyt,
        cites=["111.2"],
        doc="Ties the model's record of the static grant (static_opyt, written only by its actions) to the game "
        "state: the effect applies as soon as Знамя enters play (never queued), and vanishes with the ability "
        "itself or with its source.",
    )
    if statics:
        def resolving(item: str) -> Term:
            if order == "lifo":
                return Or(*(And(v.qlen == i + 1, v.queue[sl] == item) for i, sl in enumerate(slots)))
            return v.queue[slots[0]] == item

        m.action_property(
            "111.3: удаление, наложенное после постоянного наделения, побеждает: Вайл теряет Опыт, Знамя в игре",
            "resolve",
            lambda t: Implies(resolving("remove_opyt"), Not(post_has(t, vail, opyt))),
            cites=["111.3"],
            doc="«выигрывает эффект, наложенный последним»: the removal resolving now is the last effect applied, "
            "whatever the static Знамя gave before and while Знамя stays in play.",
        )
        m.action_property(
            "111.2: эффект постоянной способности пропадает с самой способностью (Знамя теряет её, оставаясь в игре)",
            "resolve",
            lambda t: Implies(resolving("silence_banner"), And(Not(post_has(t, vail, opyt)),
                                                               t.post(v.banner) == v.banner)),
            cites=["111.2", "111.3"],
        )
        m.action_property(
            "111.3: эффект принадлежит карте, к которой применён: он остаётся, когда его источник покидает игру",
            "hero_leaves",
            lambda t: And(v.hero_in_play, Not(t.post(v.hero_in_play)),
                          *(t.post(has(c, ab)) == has(c, ab) for c in Creature for ab in Ability)),
            cites=["111.3"],
            doc="«Обычно эффект принадлежит той карте, на которую применён»: Свирепый резак leaving play takes "
            "nothing from Вайл.",
        )
        m.reachable(
            "sanity: Знамя в игре, а у Вайла нет Опыта в атаке (удаление наложено позже)",
            And(v.banner, Not(v.banner_silenced), Not(has(vail, opyt))),
            cites=["111.3"],
        )
        m.reachable(
            "sanity: Знамя в игре без своей способности",
            And(v.banner, v.banner_silenced),
            cites=["111.2"],
        )
        m.reachable(
            "sanity: Свирепый резак покинул игру, а Рывок остался у Вайла",
            And(Not(v.hero_in_play), v.hero_tapped, has(vail, Ability.ryvok)),
            cites=["111.3"],
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
