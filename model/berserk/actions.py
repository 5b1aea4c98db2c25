"""Classic Berserk: declaring, performing and paying a game action (игродействие),
with the resource-modifying features of section 539.

Sources: seed 001 (section 539, quoted in Russian), and the surrounding rules as
summarised in ``reference/berserk-rules-notes.md`` (506.3-506.5 movement, 526.1
interrupted actions, the blocking rule of RP 3.1-1, the "acted card" of 510.6).

Lifecycle of one action (one action is in flight at a time; the notes, 2.2):

1. **Заявка (declaration).** The acting card must *have* every resource the
   action needs: be open (не закрыта) for an attack or a tap ability, have a
   movement point for движение, have a use left for "X раз за ход"; it must
   not be подействовавшая unless its feature lets it repeat that very action.
   The resources are **reserved** even when a feature will waive their payment
   (539.2).
2. **Ответы (responses).** The opponent may assign a defender (защитник: a
   sudden action that reserves the defender's tap), heal one of their
   creatures by 1, block a tap ability, or (roster ``static``: a hypothetical
   fast effect, «закрыть существо») tap the acting card.  The reserved
   resources are checked for legality while the action is pending (539.2):
   an acting card tapped in response has lost its reserved tap (and an open
   card is needed to move), so its action is no longer legal.
3. **Выполнение (performance)**, or **прерывание**: an action that is no longer
   legal (a card gone, a target no longer valid, a reserved resource no longer
   there) leaves the stack unpaid (526.1).  A simple strike: the attacker strikes
   the defender (or the target), its "при ударе"/"при нападении" trigger may
   resolve, the victim counter-strikes (ответный удар), the defender's "при
   ударе" trigger may resolve (539.4.1; the counter-strike is a strike, so
   the attacked card's «при ударе» fires whether it is a defender or the
   target, review F7).  A 539.4 modifier is interactive:
   the heal trigger is declared (or declined: «может»), the opponent may
   answer it (a fast effect that wounds the healer by 1, or a block), and it
   then resolves: the heal applies (unless blocked) and the Келе condition
   «если после этого у Келе нет ран» is read at resolution, which locks in
   the waiver.
4. **Этап оплаты (payment).** Reserved resources are paid minus the ones a 539
   feature waives.  A blocked ability is still paid.
5. **Completion.** After an attack or an ability the card is подействовавшая:
   it loses all movement and may declare no other action this turn (539.3).

Features (static scenario data per card):

* ``no_tap_attack`` -- «Не закрывается после атаки» (539.1.1); as a defender see
  ``no_tap_defence``.
* ``taps_after_assault`` -- «Закрывается после нападения» (539.1.2): the card taps
  after an нападение it makes; whether defending (with its counter-strike) taps
  it is ``assault_defence_free``.
* ``x_per_turn`` -- «Может атаковать X раз за ход» (539.1.3): the tap of the
  attack is the waived resource [I]; whether the X-th use taps is the rule
  parameter ``last_use_taps`` [U].
* ``any_per_turn`` -- «Может атаковать любое количество раз за ход» (539.1.3's
  other form, review F11): no attack taps it and it may attack again however
  many times it attacked; it is подействовавшая after its first attack all the
  same (539.3: no movement, no other action).
* ``unacted`` (card data, with a feature) -- 539.3's «(если иного не указано в
  тексте особенности)», review F11: the card's feature text says otherwise (a
  hypothetical «...и после атаки не считается подействовавшей»): when its
  feature waives the tap of its attack it is not подействовавшая, keeps its
  movement and may declare other actions.
* ``heal_strike`` -- Келе: «При ударе может излечиться на 2, если после этого у
  Келе нет ран — не закрывается после этой атаки» (539.4, 539.4.1).
* ``heal_assault`` -- the same text worded «при нападении»: no effect on a
  counter-strike (539.4.1).

Rule parameters (unresolved in the notes): ``interrupted_acted`` -- whether a
card whose action was interrupted counts as подействовавшая (default: no);
``last_use_taps`` -- whether the X-th attack of "X раз за ход" taps;
``closed_counterstrikes`` -- whether a closed (tapped) creature that is attacked
still deals its counter-strike (default: yes, as no stored source restricts it;
review F9: a restriction is recalled but not confirmed);
``strikes_together`` -- review F4: whether the strike and the counter-strike are
dealt together, the «при ударе» triggers resolving after both (default: no: the
strike, the attacker's trigger, then the counter-strike, the order the seed's
example reads most naturally; classic fights roll both strikes, notes 3, [U]);
``assault_defence_free`` -- review F5: whether «Закрывается после нападения»
(539.1.2) also means the card does not tap as a defender (default: yes, the
model's [I] reading; the other reading: the text names only its нападение and
the card pays a defender's tap as any card);
``defender_acts`` -- review F6: whether 539.3 applies to a defender whose tap a
feature waived (assigning a defender is a sudden action): it then counts as
подействовавшая, loses its movement and may not defend again this turn
(default: no; 539.3 says «действия», the notes do not settle whether a
defence is one);
``no_tap_defence`` -- review F8: whether «Не закрывается после атаки» (539.1.1)
also waives a defender's tap (its counter-strike is an удар/атака, 539.4.1)
(default: no: defending is not the card's attack).

The deliberately broken rules are edits in ``mutants/berserk/actions.py``; tests
use them to show that a property catches each break.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ruleproof.dsl import And, Bool, If, Int, Min, Model, Not, OneOf, Or, Step, Term

__all__ = ["CardSpec", "ROSTERS", "SCENARIOS", "CHECKED", "FEATURES", "build", "waiver"]


class CardSpec(NamedTuple):
    """A creature of a scenario: controller, feature and printed numbers (immutable).

    A NamedTuple rather than a dataclass: the loader does not register model
    modules in ``sys.modules``, which ``dataclasses`` needs.
    """

    name: str
    label: str
    side: str
    feature: str = "none"
    lives: int = 4
    wounds: tuple[int, ...] = (0,)
    strength: int = 1
    moves: int = 1
    limit: int = 0
    finish: int = 0
    tapped: tuple[bool, ...] = (False,)
    unacted: bool = False


FEATURES = ("none", "no_tap_attack", "taps_after_assault", "x_per_turn", "heal_strike", "heal_assault", "any_per_turn")
FEATURE_LABELS = (
    "нет",
    "не закрывается после атаки",
    "закрывается после нападения",
    "может атаковать X раз за ход",
    "при ударе может излечиться на 2",
    "при нападении может излечиться на 2",
    "может атаковать любое количество раз за ход",
)

KELE = "Келе"
ROSTERS: dict[str, tuple[CardSpec, ...]] = {
    "kele_attacks": (
        CardSpec("kele", KELE, "p1", "heal_strike", lives=5, wounds=(0, 2, 3)),
        CardSpec("foe", "Противник", "p2", lives=4),
    ),
    "kele_defends": (
        CardSpec("foe", "Нападающий", "p1", lives=2),
        CardSpec("kele", KELE, "p2", "heal_strike", lives=3, wounds=(0, 1)),
        CardSpec("ward", "Страж (при нападении)", "p2", "heal_assault", lives=3, wounds=(0, 1)),
        CardSpec("ally", "Союзник", "p2", lives=2),
    ),
    "static": (
        CardSpec("steady", "Стойкий (не закрывается после атаки)", "p1", "no_tap_attack", tapped=(False, True)),
        CardSpec("sentry", "Часовой (закрывается после нападения)", "p2", "taps_after_assault", lives=3),
        CardSpec("plain", "Простое существо", "p2", lives=3),
    ),
    "twice": (
        CardSpec("raider", "Налётчик (может атаковать 2 раза за ход)", "p1", "x_per_turn", limit=2),
        CardSpec("foe", "Противник", "p2", lives=6),
    ),
    "finish": (
        CardSpec("finisher", "Добиватель (добивание на 2)", "p1", finish=2),
        CardSpec("foe", "Противник", "p2", lives=3, wounds=(1,)),
    ),
    # reviews F5, F6, F8: two attackers on each side, so that one card may be asked to defend twice in a turn, and
    # the cards with 539.1.1 and 539.1.2 features can each defend
    # review F11: 539.1.3's «любое количество раз за ход», and 539.3's exception («если иного не указано в тексте
    # особенности»); each attacks more than three times in a turn when the other survives (4 lives, strength 1)
    "any_times": (
        CardSpec("berserker", "Берсерк (может атаковать любое количество раз за ход)", "p1", "any_per_turn"),
        CardSpec("tireless", "Неутомимый (не закрывается после атаки и не считается подействовавшим)", "p2",
                 "no_tap_attack", unacted=True),
    ),
    "defence": (
        CardSpec("steady", "Стойкий (не закрывается после атаки)", "p1", "no_tap_attack", lives=2),
        CardSpec("raider", "Налётчик", "p1", lives=2),
        CardSpec("sentry", "Часовой (закрывается после нападения)", "p2", "taps_after_assault", lives=2),
        CardSpec("plain", "Простое существо", "p2", lives=2),
    ),
}

# rosters where the opponent has the fast effect «закрыть существо» (a response that taps the acting card)
TAP_RESPONSE = ("static",)
# rosters where the heal trigger can be answered: a fast effect that wounds the healer by 1, and a block
HEAL_RESPONSES = ("kele_attacks", "kele_defends")

_DEFAULTS = {"interrupted_acted": False, "last_use_taps": True, "closed_counterstrikes": True,
             "strikes_together": False, "assault_defence_free": True, "defender_acts": False,
             "no_tap_defence": False}
# the other reading of each defence question (reviews F5, F6, F8), checked together on the roster ``defence``
_DEFENCE_ALT = {"assault_defence_free": False, "defender_acts": True, "no_tap_defence": True}
SCENARIOS = {
    "kele_attacks": {"roster": "kele_attacks", **_DEFAULTS},
    "kele_attacks_together": {"roster": "kele_attacks", **{**_DEFAULTS, "strikes_together": True}},
    "kele_defends": {"roster": "kele_defends", **_DEFAULTS},
    "static": {"roster": "static", **_DEFAULTS},
    "static_closed_no_counter": {"roster": "static", **{**_DEFAULTS, "closed_counterstrikes": False}},
    "twice": {"roster": "twice", **_DEFAULTS},
    "twice_no_last_tap": {"roster": "twice", **{**_DEFAULTS, "last_use_taps": False}},
    "finish": {"roster": "finish", **_DEFAULTS},
    "finish_interrupted_acts": {"roster": "finish", **{**_DEFAULTS, "interrupted_acted": True}},
    "defence": {"roster": "defence", **_DEFAULTS},
    "defence_alt": {"roster": "defence", **{**_DEFAULTS, **_DEFENCE_ALT}},
    "any_times": {"roster": "any_times", **_DEFAULTS},
}
CHECKED = ("kele_attacks", "kele_attacks_together", "kele_defends", "static", "static_closed_no_counter", "twice",
           "twice_no_last_tap", "finish", "defence", "defence_alt", "any_times")

STAGES = ("idle", "declared", "strike", "trig_a", "heal_a", "counter", "trig_d", "heal_d", "payment")
STAGE_LABELS = (
    "нет действия",
    "заявлено (в стеке)",
    "удар",
    "срабатывание нападающего",
    "излечение нападающего заявлено",
    "ответный удар",
    "срабатывание защитника",
    "излечение защитника заявлено",
    "этап оплаты",
)
KINDS = ("attack", "move", "ability")
KIND_LABELS = ("нападение (простой удар)", "движение", "добивание (способность с закрытием)")


def waiver(v: Any, c: Term, *, last_use_taps: bool, assault_defence_free: bool, no_tap_defence: bool) -> Term:
    """Whether a 539 feature waives the tap ``c`` reserved for the action in flight (``v``: the model's
    variables and static data, ``m.v``; the keywords: the rule parameters of the same names)."""
    per_turn_free = Not(And(last_use_taps, v.uses[c] + 1 >= v.limit[c]))
    heals = Or(v.feat[c] == "heal_strike", v.feat[c] == "heal_assault")
    as_actor = (v.kind == "attack") & (
        (v.feat[c] == "no_tap_attack") | ((v.feat[c] == "x_per_turn") & per_turn_free) | (heals & v.mod_att)
        | (v.feat[c] == "any_per_turn")
    )
    as_defender = (((v.feat[c] == "heal_strike") & v.mod_def)
                   | ((v.feat[c] == "taps_after_assault") & assault_defence_free)
                   | ((v.feat[c] == "no_tap_attack") & no_tap_defence))
    return If(v.actor == c, as_actor, as_defender)


def build(
    roster: str = "kele_attacks",
    interrupted_acted: bool = False,
    last_use_taps: bool = True,
    closed_counterstrikes: bool = True,
    strikes_together: bool = False,
    assault_defence_free: bool = True,
    defender_acts: bool = False,
    no_tap_defence: bool = False,
) -> Model:
    """The action lifecycle for the cards of ``roster``."""
    if roster not in ROSTERS:
        raise ValueError(f"unknown roster '{roster}' (known: {', '.join(ROSTERS)})")
    specs = {s.name: s for s in ROSTERS[roster]}
    m = Model("actions", doc=__doc__ or "")
    m.params.update(roster=roster, interrupted_acted=interrupted_acted, last_use_taps=last_use_taps,
                    closed_counterstrikes=closed_counterstrikes, strikes_together=strikes_together,
                    assault_defence_free=assault_defence_free, defender_acts=defender_acts,
                    no_tap_defence=no_tap_defence)

    Side = m.sort("Side", ["p1", "p2"], labels=["игрок 1", "игрок 2"])
    Card = m.sort("Card", list(specs), labels=[s.label for s in specs.values()])
    Feature = m.enum("Feature", list(FEATURES), labels=list(FEATURE_LABELS))
    Stage = m.enum("Stage", list(STAGES), labels=list(STAGE_LABELS))
    Kind = m.enum("Kind", list(KINDS), labels=list(KIND_LABELS))

    max_lives = max(s.lives for s in specs.values())
    max_limit = max(3, *(s.limit for s in specs.values()))  # «X раз за ход» for any X the roster prints
    side = m.static("side", Side, Card, {n: s.side for n, s in specs.items()})
    feat = m.static("feat", Feature, Card, {n: s.feature for n, s in specs.items()})
    lives = m.static("lives", Int(1, max_lives), Card, {n: s.lives for n, s in specs.items()})
    strength = m.static("strength", Int(0, 9), Card, {n: s.strength for n, s in specs.items()})
    moves = m.static("moves", Int(0, 3), Card, {n: s.moves for n, s in specs.items()})
    limit = m.static("limit", Int(0, max_limit), Card, {n: s.limit for n, s in specs.items()})
    finish = m.static("finish", Int(0, 9), Card, {n: s.finish for n, s in specs.items()})
    # 539.3 «(если иного не указано в тексте особенности)»: the feature says the card is not подействовавшая
    unacted = m.static("unacted", Bool, Card, {n: s.unacted for n, s in specs.items()})

    first = next(iter(specs))
    first_card = Card[first]
    active = m.var("active", Side, init="p1")
    stage = m.var("stage", Stage, init="idle")

    def in_flight() -> Term:
        # what the action in flight is: shown only while an action is in flight (the values
        # left between actions are the model's canonical ones, not game state)
        return stage != "idle"

    kind = m.var("kind", Kind, init="attack", observable=in_flight)
    actor = m.var("actor", Card, init=first, observable=in_flight)
    target = m.var("target", Card, init=first, observable=in_flight)
    has_def = m.var("has_def", Bool, init=False, observable=in_flight)
    defender = m.var("defender", Card, init=first, observable=lambda: (stage != "idle") & has_def)
    blocked = m.var("blocked", Bool, init=False, observable=in_flight)
    responded = m.var("responded", Bool, init=False, observable=in_flight)
    mod_att = m.var("mod_att", Bool, init=False, observable=in_flight)
    mod_def = m.var("mod_def", Bool, init=False, observable=in_flight)

    tapped = m.var("tapped", Bool, index=Card, init=lambda c: OneOf(*specs[c.name].tapped))
    move = m.var("move", Int(0, 3), index=Card, init=lambda c: specs[c.name].moves)
    acted = m.var("acted", Bool, index=Card, init=False)
    uses = m.var("uses", Int(0, max_limit), index=Card, init=0)
    wounds = m.var("wounds", Int(0, max_lives), index=Card, init=lambda c: OneOf(*specs[c.name].wounds))
    rsv_tap = m.var("rsv_tap", Bool, index=Card, init=False)
    rsv_move = m.var("rsv_move", Bool, index=Card, init=False)
    rsv_use = m.var("rsv_use", Bool, index=Card, init=False)

    def alive(c: Term) -> Term:
        return wounds[c] < lives[c]

    def heals(c: Term) -> Term:
        return Or(feat[c] == "heal_strike", feat[c] == "heal_assault")

    def may_act(c: Term, repeat_ok: Term | bool) -> Term:
        """539.3 / 510.6: an acted card declares nothing, unless its feature repeats this action."""
        return Or(~acted[c], repeat_ok)

    victim = If(has_def, defender, target)

    def declare_common(a: Step, c: Term, k: str) -> None:
        a.require((stage == "idle") & (side[c] == active) & alive(c))
        a.set(stage, "declared")
        a.set(kind, k)
        a.set(actor, c)
        a.set(has_def, False)
        a.set(blocked, False)
        a.set(responded, False)
        a.set(mod_att, False)
        a.set(mod_def, False)

    @m.action(Card, Card, describe="{c} заявляет нападение на {t}", cites=["539.2", "539.3", "539.1.3"])
    def declare_attack(a: Step, c: Term, t: Term) -> None:
        declare_common(a, c, "attack")
        a.require((side[t] != side[c]) & alive(t))
        per_turn = feat[c] == "x_per_turn"
        a.require(~tapped[c] & ~rsv_tap[c])  # reserved even when a feature waives paying it (539.2)
        use_left = uses[c] < limit[c]
        a.require(~per_turn | use_left)
        a.require(may_act(c, (per_turn & use_left) | (feat[c] == "any_per_turn")))
        a.set(target, t)
        a.set(rsv_tap[c], True)
        a.set(rsv_use[c], per_turn)

    @m.action(Card, describe="{c} заявляет движение", cites=["539.3", "506.5"])
    def declare_move(a: Step, c: Term) -> None:
        declare_common(a, c, "move")
        a.require(~tapped[c] & (move[c] >= 1) & ~rsv_move[c])
        a.require(may_act(c, False))
        a.set(target, c)
        a.set(rsv_move[c], True)

    @m.action(Card, Card, describe="{c} заявляет добивание на {t}", cites=["539.2", "526.1"])
    def declare_ability(a: Step, c: Term, t: Term) -> None:
        declare_common(a, c, "ability")
        a.require((finish[c] >= 1) & (side[t] != side[c]) & alive(t))
        a.require(lives[t] - wounds[t] <= finish[c])
        a.require(~tapped[c] & ~rsv_tap[c])
        a.require(may_act(c, False))
        a.set(target, t)
        a.set(rsv_tap[c], True)

    @m.action(Card, describe="{d} назначается защитником", cites=["539.4.1", "539.2"])
    def assign_defender(a: Step, d: Term) -> None:
        a.require((stage == "declared") & (kind == "attack") & ~has_def)
        a.require((side[d] != active) & (target != d) & alive(d) & ~tapped[d] & ~rsv_tap[d])
        a.require(may_act(d, False))  # a defence is a sudden action (notes): 539.3 bars an acted card
        a.set(has_def, True)
        a.set(defender, d)
        a.set(rsv_tap[d], True)

    @m.action(Card, describe="в ответ на добивание быстрый эффект противника излечивает {t} на 1", cites=["526.1"])
    def respond_heal(a: Step, t: Term) -> None:
        a.require((stage == "declared") & (kind == "ability") & ~responded & (side[t] != active))
        a.require((wounds[t] >= 1) & alive(t))
        a.set(wounds[t], wounds[t] - 1)
        a.set(responded, True)

    @m.action(Card, describe="в ответ быстрый эффект противника закрывает действующую карту {c}",
              cites=["539.2", "526.1"], where=lambda c: roster in TAP_RESPONSE)
    def respond_tap(a: Step, c: Term) -> None:
        a.require((stage == "declared") & (actor == c) & ~responded & ~tapped[c])
        a.set(tapped[c], True)
        a.set(responded, True)

    @m.action(describe="способность блокирована", cites=["RP 3.1-1 блокирование"])
    def respond_block(a: Step) -> None:
        a.require((stage == "declared") & (kind == "ability") & ~blocked)
        a.set(blocked, True)

    # 539.2: «к ним применяются общие правила проверки легальности»: every reserved resource is still there
    reserved_there = And(*(((~rsv_tap[c]) | ~tapped[c]) & ((~rsv_move[c]) | (~tapped[c] & (move[c] >= 1)))
                           for c in Card))
    legal = reserved_there & If(
        kind == "attack",
        alive(actor) & alive(target),
        If(kind == "ability", alive(target) & (lives[target] - wounds[target] <= finish[actor]), True),
    )

    def release(a: Step) -> None:
        for c in Card:
            a.set(rsv_tap[c], False)
            a.set(rsv_move[c], False)
            a.set(rsv_use[c], False)
        a.set(stage, "idle")
        # canonical values once no action is in flight (keeps the state space small)
        a.set(kind, "attack")
        a.set(actor, first_card)
        a.set(target, first_card)
        a.set(defender, first_card)
        a.set(has_def, False)
        a.set(blocked, False)
        a.set(responded, False)
        a.set(mod_att, False)
        a.set(mod_def, False)

    @m.action(describe="действие прервано и уходит из стека без оплаты", cites=["526.1"])
    def interrupt(a: Step) -> None:
        a.require((stage == "declared") & ~legal)
        if interrupted_acted:
            for c in Card:
                a.set(acted[c], True, when=actor == c)
                a.set(move[c], 0, when=actor == c)
        release(a)

    @m.action(describe="оба игрока пасуют: действие выполняется", cites=["539.4", "526.1"])
    def perform(a: Step) -> None:
        a.require((stage == "declared") & legal)
        a.set(stage, If(kind == "attack", Stage.strike, Stage.payment))
        hit = (kind == "ability") & ~blocked
        for c in Card:
            a.set(wounds[c], lives[c], when=hit & (target == c))

    strikes_back = alive(victim) if closed_counterstrikes else alive(victim) & ~tapped[victim]

    def struck_back(a: Step) -> None:
        """The counter-strike: the attacked creature, still in play, deals its strength to the attacker."""
        back = If(strikes_back, strength[victim], 0)
        a.set(wounds[actor], Min(wounds[actor] + back, lives[actor]))

    @m.action(describe="удар нападающего" + (" и ответный удар одновременно" if strikes_together else ""),
              cites=["539.4"])
    def strike(a: Step) -> None:
        a.require(stage == "strike")
        a.set(wounds[victim], Min(wounds[victim] + strength[actor], lives[victim]))
        if strikes_together:  # review F4 [U]: both strikes are dealt together, the triggers resolve afterwards
            struck_back(a)
        a.set(stage, If(heals(actor), Stage.trig_a, Stage.counter))

    @m.action(describe="срабатывание «при ударе/при нападении» нападающего", cites=["539.4", "539.4.1"])
    def trigger_attacker(a: Step) -> None:
        a.require(stage == "trig_a")
        accept = a.choose("излечиться", Bool)  # «может»: the controller may decline
        a.set(stage, If(accept, Stage.heal_a, Stage.counter))  # declared under the general rules (539.4)

    def resolve_heal(a: Step, healer: Term, mod: Term, nxt: str) -> None:
        """539.4: the declared heal resolves: heal 2 unless blocked (or its source has left play); the
        condition «если после этого нет ран» is read now, at resolution."""
        takes = ~blocked & alive(healer)
        after = wounds[healer] - If(takes, Min(wounds[healer], 2), 0)
        a.set(wounds[healer], after)
        a.set(mod, takes & (after == 0))
        a.set(stage, nxt)

    @m.action(describe="излечение нападающего разрешается", cites=["539.4"])
    def resolve_heal_a(a: Step) -> None:
        a.require(stage == "heal_a")
        resolve_heal(a, actor, mod_att, "counter")

    heal_pending = (stage == "heal_a") | (stage == "heal_d")
    healer = If(stage == "heal_a", actor, victim)

    @m.action(describe="в ответ на излечение быстрый эффект противника наносит излечивающейся карте 1 рану",
              cites=["539.4"], where=lambda: roster in HEAL_RESPONSES)
    def respond_wound(a: Step) -> None:
        a.require(heal_pending & ~responded & alive(healer))
        a.set(wounds[healer], Min(wounds[healer] + 1, lives[healer]))
        a.set(responded, True)

    @m.action(describe="излечение блокировано", cites=["539.4", "RP 3.1-1 блокирование"],
              where=lambda: roster in HEAL_RESPONSES)
    def block_heal(a: Step) -> None:
        a.require(heal_pending & ~blocked)
        a.set(blocked, True)

    @m.action(describe="ответный удар" + (" (нанесён вместе с ударом)" if strikes_together else ""),
              cites=["539.4.1"])
    def counter(a: Step) -> None:
        a.require(stage == "counter")
        if not strikes_together:
            struck_back(a)
        # the counter-strike is a strike: the attacked card's «при ударе» fires, defender or not (539.4.1, review F7)
        a.set(stage, If(strikes_back & (feat[victim] == "heal_strike"), Stage.trig_d, Stage.payment))

    @m.action(describe="срабатывание «при ударе» атакованной карты (защитника или цели) на ответном ударе",
              cites=["539.4.1"])
    def trigger_defender(a: Step) -> None:
        a.require(stage == "trig_d")
        accept = a.choose("излечиться", Bool)
        a.set(stage, If(accept, Stage.heal_d, Stage.payment))

    @m.action(describe="излечение атакованной карты разрешается", cites=["539.4.1"])
    def resolve_heal_d(a: Step) -> None:
        a.require(stage == "heal_d")
        resolve_heal(a, victim, mod_def, "payment")

    def waived(c: Term) -> Term:
        return waiver(m.v, c, last_use_taps=last_use_taps, assault_defence_free=assault_defence_free,
                      no_tap_defence=no_tap_defence)

    @m.action(describe="этап оплаты", cites=["539.2", "539.3", "RP 3.1-1 блокирование"])
    def pay(a: Step) -> None:
        a.require(stage == "payment")
        for c in Card:
            is_actor = actor == c
            a.set(tapped[c], tapped[c] | (rsv_tap[c] & ~waived(c)))
            # 539.3, unless the feature's text says otherwise (review F11)
            completes = is_actor & (kind != "move") & ~(unacted[c] & rsv_tap[c] & waived(c))
            if defender_acts:  # review F6 [U]: 539.3 for a defender whose tap a feature waived
                completes = completes | (has_def & (defender == c) & rsv_tap[c] & waived(c))
            spent = move[c] - If(rsv_move[c], 1, 0)
            a.set(move[c], If(completes, 0, spent))
            a.set(acted[c], acted[c] | completes)
            a.set(uses[c], uses[c] + If(rsv_use[c], 1, 0))
        release(a)

    @m.action(describe="конец хода: ход переходит к другому игроку", cites=["539.3", "506.4"])
    def end_turn(a: Step) -> None:
        a.require(stage == "idle")
        a.set(active, If(active == "p1", Side.p2, Side.p1))
        for c in Card:
            a.set(acted[c], False)
            a.set(uses[c], 0)
            a.set(move[c], moves[c])
            a.set(tapped[c], tapped[c] & (side[c] == active))  # the new active player's cards open [I]

    # "must" meets "cannot": the payment stage pays (taps) what was reserved, while
    # «Не закрывается после атаки» says the card does not tap; 539.2 says the feature wins.
    m.must("tapped by the payment stage", Card, lambda c: (stage == "payment") & rsv_tap[c] & ~tapped[c],
           cites=["539.2"], doc="The payment stage pays the reserved resources.")
    m.cannot("tapped by the payment stage", Card,
             lambda c: (stage == "payment") & (feat[c] == "no_tap_attack") & (actor == c) & (kind == "attack")
             & ~tapped[c],
             cites=["539.1.1"], doc="«Не закрывается после атаки».")
    # the other resource-modifying features say "does not tap" too (review W9): each is a "cannot" of its own
    def attack_paid(c: Term) -> Term:
        return (stage == "payment") & (actor == c) & (kind == "attack") & ~tapped[c]

    m.cannot("tapped by the payment stage", Card,
             lambda c: attack_paid(c) & (feat[c] == "x_per_turn") & Not(And(last_use_taps, uses[c] + 1 >= limit[c])),
             cites=["539.1.3"], doc="«Может атаковать X раз за ход»: the attacks before the X-th do not tap.")
    m.cannot("tapped by the payment stage", Card, lambda c: attack_paid(c) & (feat[c] == "any_per_turn"),
             cites=["539.1.3"], doc="«Может атаковать любое количество раз за ход»: no attack taps (review F11).")
    m.cannot("tapped by the payment stage", Card, lambda c: attack_paid(c) & heals(c) & mod_att,
             cites=["539.4"], doc="Келе: «если после этого у Келе нет ран — не закрывается после этой атаки».")
    m.cannot("tapped by the payment stage", Card,
             lambda c: (stage == "payment") & (actor != c) & has_def & (defender == c) & ~tapped[c]
             & (((feat[c] == "heal_strike") & mod_def) | ((feat[c] == "taps_after_assault") & assault_defence_free)
                | ((feat[c] == "no_tap_attack") & no_tap_defence)),
             cites=["539.4.1", "539.1.2", "539.1.1"],
             doc="A defender healed to no wounds by «при ударе» (539.4.1), one that taps only after its own "
             "нападение (539.1.2, parameter assault_defence_free), or one that does not tap after an attack when "
             "its counter-strike counts (539.1.1, parameter no_tap_defence), does not tap.")
    m.resolve("tapped by the payment stage", Card, wins="cannot", happened=lambda c: tapped[c], cites=["539.2"],
              doc="The payment stage does not pay what the feature names.")
    return m

