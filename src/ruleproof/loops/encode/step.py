"""One ability of the cycle as one step of the loop model: the shared context of its cost and effect encoders.

An :class:`AbilityStep` holds what the encoders of :mod:`ruleproof.loops.encode.parts`
read and write while the DSL builds one action: the sequential view of the
state (:class:`Sym`: later reads see earlier writes, costs then effects), the
pre-state view (the effect test ignores the cost: Abilities), the ability's
card and controller, and the list of "could this change the game state"
conditions.  It also owns the moves every encoder shares: choosing targets
(per target reference), raising triggering conditions, and cards leaving
play (with interrupts, saves, attachments going with their host and the
owner's piles).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Mapping

from ruleproof.cards.abilities import (
    Ability,
    AbilityType,
    CardKind,
    ChallengeRole,
    Condition,
    EventKind,
    Scope,
    Subject,
    Target,
    TargetRef,
    TestKind,
)
from ruleproof.cards.semantics import (
    BANNABLE,
    CardFacts,
    Move,
    Place,
    Rules,
    answers,
    fits,
    relation_holds,
    same_title,
    trigger_of,
)
from ruleproof.dsl import And, Bool, If, Int, Model, Not, Or, Sort, Step, Sum, Term
from ruleproof.loops.encode.accept import (
    CARD_EVENTS,
    Encoding,
    card_test,
    inherited,
    plain_alternatives,
    relation_read,
    self_or_chosen,
    static_match,
    target_match,
    title_read,
)

__all__ = ["CARD_EVENTS", "AbilityStep", "Ctx", "Sym", "ban_name", "cid", "false", "pending_name", "player_scope_ok",
           "true"]

_INTERRUPTS = frozenset({AbilityType.INTERRUPT, AbilityType.FORCED_INTERRUPT})
_NEVER_IN_CYCLE_MEANS = frozenset({"assault", "ambush"})


def cid(code: str) -> str:
    """The model name of a card key (``opp:01001`` -> ``copp_01001``)."""
    return "c" + re.sub(r"\W", "_", code)


def pending_name(move: Move, saveable: bool) -> str:
    """The value of ``imm`` while ``move`` waits for an interrupt (``_unsaved`` when it cannot be saved)."""
    return move.name if saveable else f"{move.name}_unsaved"


def true() -> Term:
    """The constant true."""
    return And()


def false() -> Term:
    """The constant false."""
    return Or()


class Sym:
    """Sequential symbolic execution inside one action: reads see earlier writes."""

    def __init__(self, cells: Mapping[tuple[str, ...], Term]) -> None:
        self.cur: dict[tuple[str, ...], Term] = dict(cells)
        self.touched: list[tuple[str, ...]] = []
        self.guard: Term | None = None  # every write happens only when this holds (a post-then aspect)

    def __getitem__(self, key: tuple[str, ...]) -> Term:
        return self.cur[key]

    def __contains__(self, key: tuple[str, ...]) -> bool:
        return key in self.cur

    def put(self, key: tuple[str, ...], value: Term | int | bool | str, when: Term | None = None) -> None:
        """Write ``value`` (when ``when`` holds, and under the current guard)."""
        if self.guard is not None:
            when = self.guard if when is None else And(self.guard, when)
        old = self.cur[key]
        self.cur[key] = If(when if when is not None else true(), value, old)
        if key not in self.touched:
            self.touched.append(key)


@dataclass
class Ctx:
    """Per-model tables the step builders share."""

    enc: Encoding
    m: Model
    rules: Rules
    card: Sort
    cells: dict[tuple[str, ...], Term] = field(default_factory=dict)
    snaps: dict[tuple[str, ...], Term] = field(default_factory=dict)
    ids: tuple[str, ...] = ()
    by_id: dict[str, CardFacts] = field(default_factory=dict)
    limits: frozenset[int] = frozenset()
    moves: dict[str, Move] = field(default_factory=dict)
    #: some effect of the model takes control of a card: control is state (``ctl``), not the owner
    control: bool = False
    #: a player who initiates every optional ability (``ModelSpec.solo``), or ""
    solo: str = ""

    def holder(self, j: int) -> CardFacts:
        """The card of the ``j``-th ability of the cycle."""
        return self.enc.card_of(j)


def trigger_matches(ctx: Ctx, j: int, ev: EventKind, src: Place | None, subject: CardFacts | None) -> bool:
    """Does event ``ev`` (about card ``subject``, or a player; a card leaving ``src``) answer ability ``j``'s
    triggering condition?"""
    b = ctx.enc.abilities[j]
    trig = trigger_of(b)
    if trig is None or (trig.means is not None and trig.means.value in _NEVER_IN_CYCLE_MEANS):
        return False
    if not answers(trig, ev, src):
        return False
    if subject is None:
        return trig.subject.scope in (Scope.ANY, Scope.ANY_PLAYER)
    return static_match(trig.subject, ctx.holder(j), subject)


class AbilityStep:
    """The action of the ``i``-th ability while it is being built (see the module docstring)."""

    def __init__(self, ctx: Ctx, i: int, st: Step, initiator: str | None = None) -> None:
        self.ctx, self.i, self.st = ctx, i, st
        self.a: Ability = ctx.enc.abilities[i]
        self.src = ctx.enc.card_of(i)
        self.sid = cid(self.src.code)
        self.me = initiator or self.src.owner  # "you": the player who initiates it (FAQ 2.7)
        self.sym = Sym(ctx.cells)
        self.pre = Sym(ctx.cells)  # pre-state view (the effect test ignores the cost: Abilities)
        self.changes: list[Term] = []
        self.trig_card = ctx.cells[("trig", f"a{i}")]
        #: the cards chosen to pay a cost ("kneel a «Knight» to stand it": the effect acts on that card)
        self.cost_cards: dict[str, Term] = {}
        #: the cards an effect chose, by its target ("choose a character. Stand that character": one card)
        self.chosen: dict[Target, dict[str, Term]] = {}

    # reading -------------------------------------------------------------
    def players(self, t: Target) -> list[str]:
        """The players a player target names, read from the initiator's side ("you": the initiator; "each player"
        or "any player": both)."""
        scope = t.subject.scope
        if scope in (Scope.ANY, Scope.YOU, Scope.YOU_CONTROL, Scope.SELF):
            return [self.me]
        return [p for p in self.ctx.enc.players if player_scope_ok(scope, self.me, p)]

    def in_play(self, k: str) -> Term:
        """Card ``k`` is in play before the ability (targets are checked then: Target)."""
        return self.pre[("zone", k)] == Place.PLAY.value

    def controls(self, k: str, view: Sym | None = None) -> Term:
        """The initiating player controls card ``k`` (its owner, unless an effect of the model takes control)."""
        if self.ctx.control:
            return (view or self.pre)[("ctl", k)] == self.me
        return true() if self.ctx.by_id[k].owner == self.me else false()

    def state_ok(self, s: Subject, k: str, view: Sym | None = None) -> Term:
        """The state part of a filter ("standing", "kneeling", who controls it) for card ``k``."""
        v = view or self.pre
        conds: list[Term] = []
        if s.standing is True:
            conds.append(v[("standing", k)])
        if s.standing is False:
            conds.append(Not(v[("standing", k)]))
        owned = not self.ctx.rules.owners.by_owner  # (misread: "you own" read as "you control")
        if self.ctx.control and (s.scope in (Scope.YOU_CONTROL, Scope.YOU) or owned and s.scope is Scope.YOU_OWN):
            conds.append(self.controls(k, v))
        if self.ctx.control and (s.scope in (Scope.OPPONENT_CONTROLS, Scope.OPPONENT)
                                 or owned and s.scope is Scope.OPPONENT_OWNS):
            conds.append(Not(self.controls(k, v)))
        if s.role in _ROLE_TEST and ("role", k) in v:  # its part in the current challenge (Challenges)
            conds.append(_ROLE_TEST[s.role](v[("role", k)]))
        if s.attachment_traits:  # "a character with a «Direwolf» attachment": one of the model's, in play on it
            want = {x.lower() for x in s.attachment_traits}
            conds.append(Or(*(v[("zone", cid(c.code))] == Place.PLAY.value for c in self.ctx.enc.cards
                              if c.type == "attachment" and c.host is not None and cid(c.host) == k
                              and want & {x.lower() for x in c.traits})))
        return And(*conds)

    def target_state(self, t: Target, k: str) -> Term:
        """The state part of target ``t``'s filter for card ``k``: the first filter's, or, when its plain alternatives
        differ in the traits of a card's attachments ("«Direwolf» characters and characters with a «Direwolf»
        attachment"), the state of any of them that ``k`` fits on printed facts."""
        alts = [inherited(x, t) for x in t.also]
        if not (any(x.attachment_traits for x in alts) and self.ctx.rules.alternatives.either
                and plain_alternatives(t)):
            return self.state_ok(t.subject, k)
        card, fixed = self.ctx.by_id[k], not self.ctx.control
        fit = [x for x in (t.subject, *alts) if static_match(x, self.src, card, self.me, fixed)]
        return Or(*(self.state_ok(x, k) for x in fit))

    def related(self, s: Subject, k: str) -> Term:
        """The comparisons of filter ``s`` with another card of the ability ("a [martell] character with lower printed
        cost" than the card returned to pay the cost), on printed stats (:func:`ruleproof.loops.encode.accept.
        relation_read`)."""
        conds: list[Term] = []
        card = self.ctx.by_id[k]
        for c in s.compare:
            if not relation_read(c, self.a):
                continue
            ref = self._named(c.than)
            conds.append(Or(*(w for j, w in ref.items() if relation_holds(c, card, self.ctx.by_id[j]))))
        if s.same_title is not None and title_read(s, self.a):  # "with the same title as the sacrificed card" (Copy)
            ref = self._named(s.same_title)
            conds.append(Or(*(w for j, w in ref.items() if same_title(card, self.ctx.by_id[j], self.ctx.rules))))
        return And(*conds)

    def _named(self, ref: TargetRef | None) -> Mapping[str, Term]:
        """The card another part of the ability names (this card, its host, the card of the trigger, the card paying
        the cost), each with the condition under which it is that card."""
        if ref is TargetRef.SELF:
            return {self.sid: true()}
        if ref is TargetRef.ATTACHED:
            return {cid(self.src.host): true()} if self.src.host is not None else {}
        if ref is TargetRef.TRIGGER:
            return {j: self.trig_card == j for j in self.ctx.ids}
        return self.cost_cards

    def challenge_holds(self, cond: Condition) -> Term:
        """"During a challenge in which you control a participating character": some card of the model fitting the
        condition's filter is in the challenge (:func:`ruleproof.loops.encode.accept.challenge_test`)."""
        s = cond.subject
        assert s is not None
        fixed = not self.ctx.control
        fits_it = [k for k in self.ctx.ids if static_match(s, self.src, self.ctx.by_id[k], self.me, fixed)]
        return Or(*(And(self.in_play(k), self.state_ok(s, k)) for k in fits_it))

    def candidates(self, t: Target, only_mine: bool) -> list[str]:
        """The cards of the model a chosen target can be (printed facts; a cost: the payer's own cards, checked
        on the state when control can change)."""
        by_id, fixed = self.ctx.by_id, not self.ctx.control
        rule = self.ctx.rules.refs.get(TargetRef.CHOSEN)
        cycle = set(self.ctx.enc.candidate.cards)
        return [k for k in self.ctx.ids if target_match(t, self.src, by_id[k], self.me, fixed, self.ctx.rules)
                and (not only_mine or not fixed or by_id[k].owner == self.me)
                and (rule is None or rule.picks == "any" or by_id[k].code in cycle)]

    def forbidden(self, events: tuple[EventKind, ...], k: str) -> Term:
        """Card ``k`` cannot be knelt / stood / killed ... (one of ``events``): a constant of a card in play says so
        (Cannot: absolute; FAQ 2.1: it cannot be chosen, and non-targeting effects ignore it)."""
        ctx = self.ctx
        if not ctx.rules.cannot.applies:
            return false()
        card = ctx.by_id[k]
        parts: list[Term] = []
        for src_key, e in ctx.enc.prohibits:
            if e.prohibited not in events:
                continue
            src = next(c for c in ctx.enc.cards if c.code == src_key)
            if e.target.ref is TargetRef.SELF or e.target.subject.scope is Scope.SELF:
                hit = src.code == card.code
            elif e.target.ref is TargetRef.ATTACHED:
                hit = src.host == card.code
            else:
                hit = static_match(e.target.subject, src, card)
            if hit:
                parts.append(self.pre[("zone", cid(src.code))] == Place.PLAY.value)
        for ev in events:  # a lasting "cannot" an ability of the model put on the card (Lasting Effects)
            if (ban_name(ev), k) in self.sym:
                parts.append(self.sym[(ban_name(ev), k)])
        return Or(*parts)

    def card_condition(self, cond: Condition) -> Term | None:
        """Whether "if that card is (not) a «Hatchling»" holds, read from the printed facts of the card the ability
        names (this card, the card of the trigger, the chosen card, the card paying the cost); ``None``: not such a
        test, or a card the model does not know (:func:`ruleproof.loops.encode.accept.card_test`)."""
        if not card_test(cond) or cond.target is None or cond.subject is None:
            return None
        t = cond.target
        sel: Mapping[str, Term] | None
        if t.ref is TargetRef.SELF:
            sel = {self.sid: true()}
        elif t.ref is TargetRef.TRIGGER:
            sel = {k: self.trig_card == k for k in self.ctx.ids}
        elif t.ref is TargetRef.COST:
            sel = self.cost_cards or None
        else:
            sel = self.chosen.get(t)
        if sel is None:
            return None
        negate = (cond.test is TestKind.IS_NOT) != cond.negated
        return Or(*(c for k, c in sel.items() if fits(cond.subject, self.ctx.by_id[k]) != negate))

    # targets -------------------------------------------------------------
    def targets(self, tag: str, t: Target, amount: int, eligible: Callable[[str], Term],
                cost: bool) -> dict[str, Term]:
        """The cards the cost or effect acts on, each with the condition under which it does.

        The reference decides (self, the attachment's host by the table's
        rule, the card of the trigger, each matching card, or chosen cards);
        a fixed card that is not eligible makes a cost unpayable, and a
        post-then aspect fail (The word "Then").
        """
        plain = eligible
        eligible = lambda k: And(plain(k), self.target_state(t, k), self.related(t.subject, k))  # noqa: E731
        if self_or_chosen(t) and self.ctx.rules.alternatives.either:  # "kneel ~ or a «Small Council» character"
            cands = list(dict.fromkeys([self.sid, *(k for x in t.also for k in self.candidates(x, cost))]))
            sel = self._chosen(tag, t, amount, eligible, cost, cands)
            if cost and not self.cost_cards:
                self.cost_cards = dict(sel)
            return sel
        rule = self.ctx.rules.refs.get(TargetRef.ATTACHED)
        attached = t.ref is TargetRef.ATTACHED or t.subject.scope is Scope.ATTACHED
        if attached and rule is not None and rule.picks != "host":
            t = Target(TargetRef.CHOSEN, Subject(Scope.ANY, CardKind.CHARACTER))
            attached = False
        fixed = self.sid if t.ref is TargetRef.SELF or t.subject.scope is Scope.SELF else \
            cid(self.src.host) if attached and self.src.host is not None else None
        if fixed is not None:
            if self.sym.guard is not None and not cost:
                return {fixed: eligible(fixed)}
            self.st.require(eligible(fixed))
            return {fixed: true()}
        trig = self.ctx.rules.refs.get(TargetRef.TRIGGER)
        if t.ref is TargetRef.TRIGGER and trig is not None and trig.picks == "any":
            t = Target(TargetRef.CHOSEN, t.subject)  # (a misreading, for its mutant)
        if t.ref is TargetRef.TRIGGER:
            if cost:  # "kneel that card to save it": paid with the card of the triggering condition, the payer's own
                sel = {k: And(self.trig_card == k, eligible(k), self.controls(k)) for k in self.ctx.ids}
                self.st.require(Or(*sel.values()))
                if not self.cost_cards:
                    self.cost_cards = dict(sel)
                return sel
            return {k: And(self.trig_card == k, eligible(k)) for k in self.ctx.ids}
        if t.ref is TargetRef.COST:
            if cost:  # "stand a participating «Army» character and remove it from the challenge": the same card pays
                for k, c in self.cost_cards.items():
                    self.st.require(Or(Not(c), eligible(k)))
                return dict(self.cost_cards)
            return {k: And(c, eligible(k)) for k, c in self.cost_cards.items()}
        if t.ref is TargetRef.EACH:
            return {k: eligible(k) for k in self.candidates(t, False)}
        if not cost and t in self.chosen and self.ctx.rules.pronouns.shared:
            # "that character": the card an earlier effect chose (Target)
            return {k: And(c, eligible(k)) for k, c in self.chosen[t].items()}
        sel = self._chosen(tag, t, amount, eligible, cost)
        if cost and not self.cost_cards:
            self.cost_cards = dict(sel)
        if not cost:
            self.chosen[t] = sel
        return sel

    def _chosen(self, tag: str, t: Target, amount: int, eligible: Callable[[str], Term],
                cost: bool, among: list[str] | None = None) -> dict[str, Term]:
        """Choose ``amount`` cards (exactly, for a cost; 1..amount for an effect) among the matching ones (or
        ``among``)."""
        cands = self.candidates(t, cost) if among is None else among
        st = self.st
        if cost and self.ctx.control:  # a cost is paid with the payer's own cards (Costs): those it controls now
            plain = eligible
            eligible = lambda k: And(plain(k), self.controls(k))  # noqa: E731
        if amount == 1 and self.sym.guard is not None and not cost:
            # a target chosen after "then": chosen when that aspect resolves; with none to choose, it fails (Target)
            ch = st.choose(tag, self.ctx.card)
            ok = Or(*(eligible(k) for k in cands)) if cands else false()
            st.require(Or(Not(ok), *(And(ch == k, eligible(k)) for k in cands)))
            return {k: And(ch == k, eligible(k)) for k in cands}
        if amount == 1:
            ch = st.choose(tag, self.ctx.card)
            st.require(Or(*(ch == k for k in cands)) if cands else false())
            for k in cands:
                st.require(Or(ch != k, eligible(k)))
            return {k: (ch == k) for k in cands}
        arr = st.choose(tag, Bool, self.ctx.card)
        sel = {k: arr[k] for k in cands}
        for k in self.ctx.ids:
            if k not in sel:
                st.require(Not(arr[k]))
        for k in cands:
            st.require(Or(Not(arr[k]), eligible(k)))
        count = Sum(*(If(v, 1, 0) for v in sel.values())) if sel else Sum()
        st.require(count == amount if cost else And(count >= 1, count <= amount))  # a cost is paid in full
        return sel

    def found(self, tag: str, t: Target, eligible: Callable[[str], Term], dest: Place,
              must: bool = False) -> dict[str, Term]:
        """The card a search found, for the one effect that takes it out of the deck (Search; see
        :func:`ruleproof.loops.encode.accept.search_move`): choice ``<tag>_found`` 0, a card of the model in the deck
        that fits (choice ``<tag>``); 1, a card of the deck the model does not hold (one of its count of the deck's
        other cards, as the table's search rule allows: the deck has one fewer, and the hand one more when it goes
        there); 2, none (the player is not obliged to find one, as the rule says).  The card found is the one later
        effects on it act on.  ``must``: the top (or bottom) card of the deck, not a search: a card moves whenever the
        deck holds one, and which one is on top is the model's pick (Deck: its order is not tracked)."""
        rule, st, me = self.ctx.rules.search, self.st, self.me
        plain = eligible
        eligible = lambda k: And(plain(k), self.target_state(t, k), self.related(t.subject, k))  # noqa: E731
        cands = self.candidates(t, False)
        what = st.choose(f"{tag}_found", Int(0, 2))
        ch = st.choose(tag, self.ctx.card) if cands else None
        mine = Or(*(And(ch == k, eligible(k)) for k in cands)) if ch is not None else false()
        deck = ("deck", me)
        other = self.sym[deck] >= 1 if rule.whole_deck else false()
        st.require(Or(what != 0, mine))
        st.require(Or(what != 1, other))
        if must or not rule.may_fail:  # (a search misread: a card that fits must be found)
            st.require(Or(what != 2, And(Not(Or(*(eligible(k) for k in cands))), Not(other))))
        # a search changes the game state (the deck is shuffled); moving the top card, only when there is one
        self.changes.append(Or(other, *(eligible(k) for k in cands)) if must else true())
        took = what == 1
        self.sym.put(deck, self.sym[deck] - 1, when=took)
        if dest is Place.HAND:
            self.sym.put(("hand", me), self.sym[("hand", me)] + 1, when=took)
        sel = {k: And(what == 0, ch == k) for k in cands} if ch is not None else {}
        self.chosen[t] = sel
        return sel

    def effect_targets(self, tag: str, t: Target, amount: int, eligible: Callable[[str], Term]) -> dict[str, Term]:
        """Targets of an effect; records whether it could change the game state (some target is eligible)."""
        sel = self.targets(tag, t, amount, eligible, False)
        if t.ref in (TargetRef.EACH, TargetRef.TRIGGER, TargetRef.COST):
            self.changes.append(Or(*sel.values()) if sel else false())
        elif self.sym.guard is not None and len(sel) == 1:
            self.changes.append(next(iter(sel.values())))
        else:
            self.changes.append(true())
        return sel

    # triggering conditions -----------------------------------------------
    def emit(self, ev: EventKind, kid: str, cond: Term, src: Place | None = None) -> None:
        """A triggering condition about card ``kid`` occurred (when ``cond``): mark the reactions that answer it."""
        ctx = self.ctx
        card = ctx.by_id[kid]
        for j, b in enumerate(ctx.enc.abilities):
            if trigger_of(b) is None or b.type in _INTERRUPTS:
                continue
            if trigger_matches(ctx, j, ev, src, card):  # scopes read from the owners' sides
                self.sym.put(("pending", f"a{j}"), True, when=cond)
                self.sym.put(("trig", f"a{j}"), kid, when=cond)

    def emit_player(self, ev: EventKind, player: str, cond: Term | None = None) -> None:
        """A triggering condition about ``player`` (gains gold, draws) occurred."""
        ctx = self.ctx
        for j, b in enumerate(ctx.enc.abilities):
            if b.trigger is None or b.type in _INTERRUPTS:
                continue
            holder = ctx.holder(j)
            if answers(b.trigger, ev, None) and player_scope_ok(b.trigger.subject.scope, holder.owner, player):
                self.sym.put(("pending", f"a{j}"), True, when=cond)

    def emit_hand_discard(self, player: str, cond: Term) -> None:
        """Cards were discarded from ``player``'s hand (when ``cond``): mark "after a card is discarded from your
        hand" reactions of that player (the hand's owner, whoever's effect discarded them), and "... from an
        opponent's hand" reactions of the other player."""
        ctx = self.ctx
        for j, b in enumerate(ctx.enc.abilities):
            if b.trigger is None or b.type in _INTERRUPTS or b.trigger.from_zone is None:
                continue
            theirs = ctx.rules.hands.scope_read and \
                b.trigger.subject.scope in (Scope.OPPONENT_OWNS, Scope.OPPONENT_CONTROLS, Scope.OPPONENT)
            if answers(b.trigger, EventKind.DISCARDED, Place.HAND) and (ctx.holder(j).owner == player) != theirs:
                self.sym.put(("pending", f"a{j}"), True, when=cond)

    # leaving play --------------------------------------------------------
    def _interrupt_answers(self, j: int, move: Move, kid: str) -> bool:
        b = self.ctx.enc.abilities[j]
        if b.type not in _INTERRUPTS or b.trigger is None:
            return False
        card = self.ctx.by_id[kid]
        evs = set(move.would) | ({EventKind.LEAVES_PLAY} if EventKind.LEAVES_PLAY in move.after else set())
        return any(trigger_matches(self.ctx, j, ev, move.src, card) for ev in evs)

    def remove(self, move: Move, sel: Mapping[str, Term], cost: bool) -> None:
        """Move the selected cards out of play; the next ability, if an interrupt that answers it, goes first.

        A card that leaves play to pay a cost cannot be saved (FAQ 3.2), nor a
        sacrificed one (Sacrifice): the table's ``saveable`` says which moves can.
        """
        nxt = (self.i + 1) % self.ctx.enc.n
        for k, s in sel.items():
            if move.saveable and not cost and ("dups", k) in self.sym and self.ctx.rules.dups.saves:
                # the game's interrupt of a duplicate: discard it to save the card (Duplicates)
                use = And(self.st.choose(f"dup_{move.name}_{k}", Bool), self.sym[("dups", k)] >= 1,
                          Not(self.forbidden((EventKind.SAVED,), k)))
                self.sym.put(("dups", k), self.sym[("dups", k)] - (1 if self.ctx.rules.dups.spent else 0),
                             when=And(s, use))
                self.emit(EventKind.SAVED, k, And(s, use))
                s = And(s, Not(use))
            if nxt != self.i and self._interrupt_answers(nxt, move, k):
                self.sym.put(("imm", k), pending_name(move, move.saveable and not cost), when=s)
                self.sym.put(("pending", f"a{nxt}"), True, when=s)
                self.sym.put(("trig", f"a{nxt}"), k, when=s)
            else:
                self.finish_removal(move, k, s)

    def finish_removal(self, move: Move, kid: str, cond: Term) -> None:
        """The card leaves play: to its destination, upright, without tokens; then the "after" events.

        Its attachments go to their owners' hands with it (Terminal: discarded; Attachment Cards).
        """
        ctx = self.ctx
        assert move.dest is not None
        attached = [c for c in ctx.enc.cards if c.host is not None and cid(c.host) == kid]
        was = {cid(c.code): self.sym[("zone", cid(c.code))] == Place.PLAY.value for c in attached}
        self.sym.put(("zone", kid), move.dest.value, when=cond)
        if ("ctl", kid) in self.sym and ctx.rules.piles.to == "owner":
            # out of play, a card is in its owner's piles, and its owner controls it (Ownership and Control)
            self.sym.put(("ctl", kid), ctx.by_id[kid].owner, when=cond)
        self.sym.put(("standing", kid), True, when=cond)
        self.sym.put(("power", kid), 0, when=cond)
        if ("cgold", kid) in self.sym:  # tokens on a card leaving play return to the treasury
            self.sym.put(("cgold", kid), 0, when=cond)
        if ("dups", kid) in self.sym:  # its duplicates are discarded with it (Leaves Play)
            self.sym.put(("dups", kid), 0, when=cond)
        if ("role", kid) in self.sym:  # it no longer participates in the challenge
            self.sym.put(("role", kid), "none", when=cond)
        for ev in BANNABLE:  # lasting effects on it end: if it comes back, it is a new copy (Leaves Play)
            if (ban_name(ev), kid) in self.sym:
                self.sym.put((ban_name(ev), kid), False, when=cond)
        for ev in move.after:
            self.emit(ev, kid, cond, move.src)
        for c in attached:
            aid = cid(c.code)
            dest = ctx.moves["discard"] if "terminal" in c.keywords else ctx.moves["return_to_hand"]
            self.finish_removal(dest, aid, And(cond, was[aid]))


_ROLE_TEST: dict[ChallengeRole, Callable[[Term], Term]] = {
    ChallengeRole.PARTICIPATING: lambda r: r != "none", ChallengeRole.ATTACKING: lambda r: r == "attacking",
    ChallengeRole.DEFENDING: lambda r: r == "defending", ChallengeRole.NOT_PARTICIPATING: lambda r: r == "none",
    ChallengeRole.NOT_ATTACKING: lambda r: r != "attacking", ChallengeRole.NOT_DEFENDING: lambda r: r != "defending",
}


def ban_name(ev: EventKind) -> str:
    """The state array of a lasting "cannot be ``ev``" on the model's cards."""
    return f"ban_{ev.value}"


def player_scope_ok(scope: Scope, holder_owner: str, player: str) -> bool:
    """Does a player scope on an ability of ``holder_owner`` name ``player``?"""
    if scope in (Scope.YOU_CONTROL, Scope.YOU_OWN, Scope.YOU, Scope.SELF):
        return player == holder_owner
    if scope in (Scope.OPPONENT_CONTROLS, Scope.OPPONENT_OWNS, Scope.OPPONENT):
        return player != holder_owner
    return True

