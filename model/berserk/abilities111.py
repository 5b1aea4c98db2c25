"""Berserk. Heroes, section 111 (and the kinds-of-abilities table after it):
features (особенности) vs abilities (способности), effects, and the Очередь.

Sources: seed 003 (111.1-111.4 and the table of static / activated /
triggered abilities, quoted in Russian) and ``reference/berserk-rules-notes.md``
section 4.2.

The cards follow the seed's example: the hero Свирепый резак gives Вайл the
ability Рывок (an effect, not a feature); Берсерк has the printed feature
Направленный удар; Талос copies a creature's features.  The other sources are
hypothetical cards, one per kind of ability the rules name:

* Свирепый резак -- activated («Оплата: эффект»): "закрыть героя: Вайл получает
  Рывок".  The cost is paid on activation; the ability goes into the Очередь;
  its effect applies when it resolves (table, column 2).
* Боевой рог (hypothetical) -- mandatory triggered: "В начале хода Вайл получает
  Рывок" (a second, independent grant of the same ability).
* Заклинатель (hypothetical, the opponent's) -- activated: "закрыться: Вайл
  теряет Рывок".  Removing an ability removes every instance (111.3).
* Талос -- optional triggered («может»): "Когда Талос выходит в игру, может
  скопировать особенности существа".  Copying copies printed features only
  (111.1).
* Знамя (hypothetical) -- static: "Пока Знамя в игре, Вайл имеет Опыт в атаке".
  Not played and never queued; applies at once and vanishes with its source.

Scenario ``printed`` (``vail_prints=True``, hypothetical): Вайл also prints Рывок, so
a removal meets a printed instance as well as the ones effects gave (111.3: it removes
every instance; a later grant gives Рывок back, the last effect wins), and copying
Вайл's features copies his printed Рывок.

Scenario ``statics`` (``statics=True``, hypothetical, review F13): the Заклинатель's
activated ability names what is lost: Вайл's Рывок, Вайл's Опыт в атаке (a removal
against the static grant of Знамя: the last effect applied wins, 111.3, so Вайл
lacks Опыт while Знамя stays in play, until Знамя enters play anew), or Знамя's own
static ability (its effect vanishes with the ability while Знамя stays in play:
the table, «пропадают в случае исчезновения самой способности»); and Свирепый
резак may leave play, the Рывок it gave staying with Вайл («Обычно эффект
принадлежит той карте, на которую применён», 111.3).

Which entry of the Очередь resolves first is not stated in any stored source:
``order`` is a rule parameter, ``"lifo"`` (recommended default) or ``"fifo"``.
The deliberately broken rules are edits in ``mutants/berserk/abilities111.py``.
"""

from __future__ import annotations

from typing import Any

from ruleproof.dsl import Bool, If, Int, Min, Model, Or, Step, Term

__all__ = ["PRINTED", "ORDERS", "SCENARIOS", "CHECKED", "build", "has"]

CREATURES = ("vail", "talos", "berserk")
CREATURE_LABELS = ("Вайл", "Талос", "Берсерк")
ABILITIES = ("ryvok", "opyt", "napr")
ABILITY_LABELS = ("Рывок", "Опыт в атаке", "Направленный удар")
# printed features (особенности) of each creature: only Берсерк prints one of the three
PRINTED = {("berserk", "napr")}
# scenario ``printed`` (hypothetical): Вайл prints Рывок too
PRINTED_VAIL = PRINTED | {("vail", "ryvok")}

# entries of the Очередь; the rules never queue the static Знамя (table: a static ability is not played), its
# entry exists so that a broken rule can put it there (mutants/berserk/abilities111.py, static_via_queue)
ITEMS = ("none", "grant_hero", "grant_horn", "remove", "copy_berserk", "copy_vail", "static_opyt", "remove_opyt",
         "silence_banner")
ITEM_LABELS = (
    "пусто",
    "Свирепый резак: Вайл получает Рывок",
    "Боевой рог: в начале хода Вайл получает Рывок",
    "Заклинатель: Вайл теряет Рывок",
    "Талос копирует особенности Берсерка",
    "Талос копирует особенности Вайла",
    "Знамя: Вайл имеет Опыт в атаке",
    "Заклинатель: Вайл теряет Опыт в атаке",
    "Заклинатель: Знамя теряет свою способность",
)
SLOTS = ("s0", "s1", "s2")
ORDERS = ("lifo", "fifo")

SCENARIOS = {
    "lifo": {"order": "lifo", "turns": 2, "vail_prints": False},
    "fifo": {"order": "fifo", "turns": 2, "vail_prints": False},
    "printed": {"order": "lifo", "turns": 2, "vail_prints": True},
    "statics": {"order": "lifo", "turns": 2, "vail_prints": False, "statics": True},
}
CHECKED = ("lifo", "fifo", "printed", "statics")


def has(v: Any, c: Term, ab: Term) -> Term:
    """111.2: the abilities card ``c`` has now: its printed features, applied effects, Талос's copy and the static
    Знамя (``v``: the model's variables and static data, ``m.v``), less what a removal took."""
    return ~v.lost[c, ab] & Or(
        v.printed[c, ab],
        v.grants[c, ab] >= 1,
        v.copied[ab] if c.name == "talos" else False,
        v.static_opyt if (c.name, ab.name) == ("vail", "opyt") else False,
    )


def build(order: str = "lifo", turns: int = 2, vail_prints: bool = False, statics: bool = False) -> Model:
    """Abilities, effects and the Очередь of the section 111 example."""
    if order not in ORDERS:
        raise ValueError(f"unknown queue order '{order}' (known: lifo, fifo)")
    if not 0 <= turns <= 3:
        raise ValueError("turns must be within 0..3")
    m = Model("abilities111", doc=__doc__ or "")
    m.params.update(order=order, turns=turns, vail_prints=vail_prints, statics=statics)
    on_card = PRINTED_VAIL if vail_prints else PRINTED

    Creature = m.sort("Creature", list(CREATURES), labels=list(CREATURE_LABELS))
    Ability = m.sort("Ability", list(ABILITIES), labels=list(ABILITY_LABELS))
    Item = m.enum("Item", list(ITEMS), labels=list(ITEM_LABELS))
    Slot = m.sort("Slot", list(SLOTS), labels=["1-е место", "2-е место", "3-е место"])
    CasterChoice = m.enum("CasterChoice", ["ryvok", "opyt", "banner"],
                          labels=["Рывок Вайла", "Опыт в атаке Вайла", "способность Знамени"])
    CopyChoice = m.enum("CopyChoice", ["decline", "berserk", "vail"], labels=["отказаться", "Берсерк", "Вайл"])

    printed = m.static(
        "printed", Bool, (Creature, Ability), lambda c, ab: (c.name, ab.name) in on_card
    )

    grants = m.var("grants", Int(0, 3), index=(Creature, Ability), init=0)
    lost = m.var("lost", Bool, index=(Creature, Ability), init=False)
    copied = m.var("copied", Bool, index=Ability, init=False)
    talos_in_play = m.var("talos_in_play", Bool, init=False)
    banner = m.var("banner", Bool, init=False)
    static_opyt = m.var("static_opyt", Bool, init=False)
    # scenario statics: Знамя in play without its static ability; Свирепый резак in play
    silenced = m.var("banner_silenced", Bool, init=False, observable=lambda: banner)
    hero_in_play = m.var("hero_in_play", Bool, init=True)
    hero_tapped = m.var("hero_tapped", Bool, init=False)
    caster_tapped = m.var("caster_tapped", Bool, init=False)
    turn_no = m.var("turn_no", Int(0, 3), init=0)
    q = m.var("queue", Item, index=Slot, init="none")
    qlen = m.var("qlen", Int(0, 3), init=0)

    vail, ryvok, opyt = Creature.vail, Ability.ryvok, Ability.opyt
    slots = list(Slot)

    def push(a: Step, item: str) -> None:
        a.require(qlen < 3)
        for i, sl in enumerate(slots):
            a.set(q[sl], item, when=qlen == i)
        a.set(qlen, qlen + 1)

    taken = (
        If(qlen == 1, q[slots[0]], If(qlen == 2, q[slots[1]], q[slots[2]])) if order == "lifo" else q[slots[0]]
    )

    def grant(a: Step, c: Term, ab: Term, when: Term) -> None:
        """111.3: an effect gives ``c`` one more instance of ``ab``; the last effect applied wins."""
        a.set(grants[c, ab], Min(grants[c, ab] + 1, 3), when=when)
        a.set(lost[c, ab], False, when=when)

    def remove(a: Step, c: Term, ab: Term, when: Term) -> None:
        """111.3: an effect removing an ability removes every instance of it."""
        a.set(grants[c, ab], 0, when=when)
        a.set(lost[c, ab], True, when=when)

    def copy_from(a: Step, src: Term, when: Term) -> None:
        """111.1: Талос copies the printed features of ``src``, never abilities granted by effects."""
        for ab in Ability:
            a.set(copied[ab], printed[src, ab], when=when)

    @m.action(describe="Свирепый резак: активируемая способность (закрыть героя: Вайл получает Рывок)",
              cites=["111.2", "111.4"])
    def activate_hero(a: Step) -> None:
        a.require(~hero_tapped & hero_in_play)
        a.set(hero_tapped, True)  # the cost is paid on activation
        push(a, "grant_hero")

    @m.action(describe="Заклинатель противника: активируемая способность ("
              + ("теряется названная способность" if statics else "Вайл теряет Рывок") + ")", cites=["111.3", "111.4"])
    def activate_caster(a: Step) -> None:
        a.require(~caster_tapped)
        a.set(caster_tapped, True)
        if not statics:
            push(a, "remove")
            return
        what = a.choose("что теряется", CasterChoice)  # the ability's target, named on activation (118.1)
        a.require(qlen < 3)
        for i, sl in enumerate(slots):
            a.set(q[sl], If(what == "ryvok", Item.remove, If(what == "opyt", Item.remove_opyt, Item.silence_banner)),
                  when=qlen == i)
        a.set(qlen, qlen + 1)

    @m.action(describe="начало хода: срабатывает «В начале хода» Боевого рога", cites=["111.2", "111.4"])
    def start_turn(a: Step) -> None:
        a.require((qlen == 0) & (turn_no < turns))
        a.set(turn_no, turn_no + 1)
        a.set(hero_tapped, False)
        a.set(caster_tapped, False)
        push(a, "grant_horn")

    @m.action(describe="Талос выходит в игру: срабатывает «может скопировать особенности»", cites=["111.1", "111.2"])
    def play_talos(a: Step) -> None:
        a.require(~talos_in_play & (qlen < 3))
        pick = a.choose("копировать", CopyChoice)  # «может»: the controller may decline
        a.set(talos_in_play, True)
        for i, sl in enumerate(slots):
            a.set(q[sl], "copy_berserk", when=(pick == "berserk") & (qlen == i))
            a.set(q[sl], "copy_vail", when=(pick == "vail") & (qlen == i))
        a.set(qlen, qlen + If(pick == "decline", 0, 1))

    @m.action(describe="Знамя выходит в игру (постоянная способность)", cites=["111.2"])
    def banner_enters(a: Step) -> None:
        a.require(~banner)
        a.set(banner, True)
        a.set(static_opyt, True)  # applies at once, outside the Очередь
        a.set(lost[vail, opyt], False)  # 111.3: applied now, it is the last effect on Вайл's Опыт
        a.set(silenced, False)  # a card entering play has its printed ability

    @m.action(describe="Знамя покидает игру", cites=["111.2"])
    def banner_leaves(a: Step) -> None:
        a.require(banner)
        a.set(banner, False)
        a.set(static_opyt, False)  # its effects vanish with the source

    @m.action(describe="Свирепый резак покидает игру", cites=["111.3"], where=lambda: statics)
    def hero_leaves(a: Step) -> None:
        a.require(hero_in_play)
        a.set(hero_in_play, False)  # 111.3: the effects it applied belong to the cards they apply to, and stay

    @m.action(describe=f"разрешается способность из Очереди ({order.upper()})", cites=["111.4", "111.3"])
    def resolve(a: Step) -> None:
        a.require(qlen >= 1)
        grant(a, vail, ryvok, Or(taken == "grant_hero", taken == "grant_horn"))
        remove(a, vail, ryvok, taken == "remove")
        remove(a, vail, opyt, taken == "remove_opyt")
        # the table: the effects of a static ability vanish with the ability itself, its source staying in play
        a.set(silenced, True, when=(taken == "silence_banner") & banner)
        a.set(static_opyt, False, when=taken == "silence_banner")
        copy_from(a, Creature.berserk, taken == "copy_berserk")
        copy_from(a, vail, taken == "copy_vail")
        if order == "lifo":
            for i, sl in enumerate(slots):
                a.set(q[sl], "none", when=qlen == i + 1)
        else:
            for i, sl in enumerate(slots):
                nxt = q[slots[i + 1]] if i + 1 < len(slots) else Item.none
                a.set(q[sl], nxt)
        a.set(qlen, qlen - 1)

    return m
