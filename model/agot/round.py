"""AGoT 2.0 game round: the seven phases of Appendix I and the active player.

Rules Reference sections: Appendix I: Timing and Gameplay (1. Plot phase to
7. Taxation phase, with 1.3 Reveal plots, 2.2 Draw, 3.2 Active player collects
income, 3.3 Next player becomes active player, 4.2 Active player may initiate
a challenge, 4.2.1 Defending player declares defenders, 4.2.2 Compare STR to
determine challenge winner, 5.2 Determine dominance, 6.2 Stand cards, 7.2
Return unspent gold, 7.3 Check reserve), First Player, First Player Token,
Initiative, Active Player, Player Order, Plot Phase, Draw Phase, Marshaling
Phase, Challenges Phase, Dominance Phase, Standing Phase, Taxation Phase,
Winning a Challenge, Kneel, Kneeling, Knelt, Stand, Standing, Melee Game, Joust
Game, Title Cards, Title Pool, Supports, Rivals (with 1.4 Select titles, 4.2.3
Gain challenge bonuses, 7.4 Return melee title cards); FAQ "At Prince Doran's
Behest".

A round loop for 2 players (joust) or 3 players (melee); the round count
saturates at ``max_rounds``.  With ``start="game"`` the game starts at the
beginning of the first plot phase; with ``start="anywhere"`` (the checked
scenarios) it is observed at any point of a round between two steps, outside a
challenge: any phase, any first and active player, any plot values, any hand, gold,
power totals, titles and kneeling cards the rules allow there (see ``anywhere`` below), so every phase
is within a few steps of the start.  ``next_phase`` is the only step that changes the phase: it ends one
phase and begins the next, and also performs the framework events that need
no player decision when a phase begins (2.2 draw, 3.2 income of the first
active player, 5.2 dominance, 6.2 stand, 7.2 and 7.3 taxation; 7.4 as the
taxation phase ends).  Players
decide in the other steps: ``reveal_plots`` (1.3: each plot's initiative,
gold and reserve values are symbolic; a player with the highest initiative
chooses the first player freely), ``marshal``, ``end_turn`` (3.3 / 4.3: the
active player passes and the next player becomes active, collecting income
in the marshaling phase), ``select_title`` (1.4, melee), ``initiate_challenge``, ``declare_defenders`` and
``resolve_challenge`` (4.2 to 4.2.6; claim is modelled in ``claim.py``),
``ability_reveals_plot`` (a card ability reveals a new plot during the plot
phase: FAQ "At Prince Doran's Behest", no new initiative comparison) and
``kneel`` (a card ability kneels a card, in any phase).

Gold, the hand and each player's power total are counters.  A tie for
initiative is won by the tied player with the lowest power total, a tie in
power too at random (Initiative).  Power is gained and moved in ``claim.py``,
``power.py`` and ``unopposed.py``; here only the rivals bonus changes it (the
checked scenarios start anywhere, with any power totals), and it saturates at
``max_value``.

Melee titles (review F9): a melee game (three or more players) uses the six
title cards; a joust game (two) never does.  ``select_title`` is step 1.4:
after the plots are revealed, the first player takes a title, then each player
in player order, from the titles no player bears; the plot phase ends only once
every player bears one.  Which titles the random removal left in the pool is
not shown: any title no player bears may be taken (every choice is possible
for some removal with three to six players; more players, some of whom play
without a title, are not modelled).  Step 7.4 returns every title
when the taxation phase ends.  The supports and rivals of each title are the
cards' text (``TITLES``; Core Set 01206 to 01211 in the vendored card pool):
a player never initiates a challenge against the bearer of the title theirs
supports (Supports), and the challenge winner, attacker or defender, gains 1
power for winning against the bearer of a rival title, once per rival opponent
per round (4.2.3, Rivals).  ``rivals`` is bookkeeping (not shown by the game):
the rivals bonuses each player gained against each opponent this round.  The
titles' STR bonuses (Title Cards, review F9; ``TITLE_STR``): the Hand of the
King, the Master of Ships and the Master of Whispers add 1 STR to their
bearer's total in a power, military or intrigue challenge in which the bearer
controls a participating character (4.2.2), and the Crown Regent adds 2 STR to
its bearer's total for dominance (5.2).  A bonus can give a defending side with
only STR 0 defenders a non-zero total; the unopposed bonus is modelled in
``unopposed.py`` (two players, no titles), not here.  Not modelled: the Crown
Regent's redirect (the Redirect rule's choice of a new defender, with its own
supports and claim consequences), and the other printed abilities (Master of
Coin's income, Master of Laws' draw and reserve, the Hand's extra power
challenge, the Master of Whispers' intrigue claim and the Master of Ships'
claim raise).

Who has been the active player this phase is game state: the
players from the first player, in player order, to the active player.
``initiated`` is bookkeeping for the properties (not shown by the game): how
many challenges of each type each player initiated this phase.

The deliberately broken rules are edits in ``mutants/agot/round.py``.
"""

from __future__ import annotations

from ruleproof.dsl import And, Bool, If, InitValue, Int, Model, OneOf, Or, Range, Step, Sum, Term, lift

__all__ = ["SCENARIOS", "CHECKED", "PHASES", "CHALLENGES", "TITLES", "TITLE_STR", "build"]

#: The six melee title cards of the Core Set (codes 01206 to 01211; their text is in the vendored card pool,
#: ``src/ruleproof/data/agot-cards/packs/Core.json``): the title each one supports and its rival titles.  The Rules
#: Reference names the titles but gives these relations only on the cards ("Supports: ...", "Rivals: ...").
TITLES: dict[str, tuple[str | None, tuple[str, ...]]] = {
    "crown_regent": (None, ()),
    "hand_of_the_king": ("master_of_laws", ("master_of_coin", "master_of_ships")),
    "master_of_coin": ("master_of_ships", ("hand_of_the_king", "master_of_whispers")),
    "master_of_laws": ("master_of_coin", ("master_of_whispers", "master_of_ships")),
    "master_of_ships": ("master_of_whispers", ("master_of_laws", "hand_of_the_king")),
    "master_of_whispers": ("hand_of_the_king", ("master_of_laws", "master_of_coin")),
}

#: The titles' STR bonuses (Title Cards, Title Pool; the cards' "+1 STR [power]" ... "+2 STR for Dominance"): the
#: challenge type in which a title adds 1 STR to its bearer's total, or ``"dominance"`` (the Crown Regent: 2 STR).
TITLE_STR: dict[str, tuple[str, int]] = {
    "hand_of_the_king": ("power", 1),
    "master_of_ships": ("military", 1),
    "master_of_whispers": ("intrigue", 1),
    "crown_regent": ("dominance", 2),
}

SCENARIOS = {
    "default": {"players": 2, "chars": 6, "start": "anywhere"},
    "melee": {"players": 3, "chars": 4, "start": "anywhere"},
    "game": {"players": 2, "chars": 6},
    "small": {"players": 2, "chars": 2},
    "tiny": {"players": 2, "chars": 1},
    "melee_small": {"players": 3, "chars": 1},
}
CHECKED = ("default", "melee")

#: The phases of a round, in the order of Appendix I.
PHASES = ("plot", "draw", "marshaling", "challenges", "dominance", "standing", "taxation")
#: The challenge types.
CHALLENGES = ("military", "intrigue", "power")


def build(
    players: int = 2,
    chars: int = 6,
    max_rounds: int = 2,
    max_value: int = 3,
    start: str = "game",
) -> Model:
    """The round model: ``players`` players with ``chars`` characters each.

    ``max_value`` bounds every plot value (initiative, gold, reserve); a hand
    holds at most ``max_value + 2`` cards (the reserve plus one draw phase).
    ``start`` is ``"game"`` (the first plot phase) or ``"anywhere"`` (any point of
    a round outside a challenge).
    """
    if players < 2:
        raise ValueError("a game needs at least 2 players")
    if players > len(TITLES):
        raise ValueError("more than six players (some without a title) are not modelled")
    if start not in ("game", "anywhere"):
        raise ValueError("start is 'game' or 'anywhere'")
    anywhere = start == "anywhere"
    melee = players >= 3  # Melee Game: three or more players; Joust Game: two
    m = Model("round", doc=__doc__ or "")
    m.params.update(players=players, max_rounds=max_rounds, max_value=max_value, start=start)
    Player = m.sort("Player", [f"p{i}" for i in range(1, players + 1)],
                    labels=[f"player {i}" for i in range(1, players + 1)])
    names = [f"c{i}" for i in range(1, players * chars + 1)]
    Char = m.sort(
        "Char", names,
        labels=[f"character {(i - 1) % chars + 1} of player {(i - 1) // chars + 1}" for i in range(1, len(names) + 1)],
    )
    Phase = m.enum("Phase", list(PHASES))
    ChType = m.enum("ChType", list(CHALLENGES))
    Stage = m.enum("Stage", ["none", "attack", "defend"])
    Outcome = m.enum("Outcome", ["nobody", "attacker", "defender"])
    Title = m.enum("Title", ["none", *TITLES])
    max_hand = max_value + 2
    order = list(Player)

    def seat(c: Term) -> int:
        return int(c.name[1:]) - 1

    # static scenario data: characters owned in blocks; every player's k-th character has the same
    # icons, STR and cost (so ties are possible), the first one every icon
    def pos(c: Term) -> int:
        return seat(c) % chars

    owner = m.static("owner", Player, Char, lambda c: f"p{seat(c) // chars + 1}")
    icon = m.static(
        "icon",
        Bool,
        (Char, ChType),
        lambda c, t: {"military": pos(c) % 3 != 2, "intrigue": pos(c) % 2 == 0, "power": pos(c) % 3 != 1}[t.name],
    )
    strength = m.static("strength", Int(0, 3), Char, lambda c: (2, 1, 3, 0)[pos(c) % 4])
    cost = m.static("cost", Int(0, 2), Char, lambda c: pos(c) % 3)

    def either(game: InitValue, later: InitValue) -> InitValue:
        """The initial value at the start of the game, or anywhere in a round."""
        return later if anywhere else game

    values = Range(0, max_value)
    phase = m.var("phase", Phase, init=either("plot", OneOf(*PHASES)))
    round_ = m.var("round", Int(1, max_rounds), init=1)
    revealed = m.var("revealed", Bool, init=either(False, OneOf(False, True)))
    first = m.var("first", Player, init=OneOf(*[p.name for p in Player]))
    initiative = m.var("initiative", Int(0, max_value), index=Player, init=either(0, values))
    income = m.var("income", Int(0, max_value), index=Player, init=either(0, values))
    reserve = m.var("reserve", Int(0, max_value), index=Player, init=either(0, values))
    gold = m.var("gold", Int(0, max_value), index=Player, init=either(0, values))
    hand = m.var("hand", Int(0, max_hand), index=Player, init=either(values, Range(0, max_hand)))
    active = m.var("active", Player, init=either(Player[0].name, OneOf(*[p.name for p in Player])))
    in_play = m.var("in_play", Bool, index=Char, init=OneOf(False, True))
    knelt = m.var("knelt", Bool, index=Char, init=either(False, OneOf(False, True)))
    # the challenge types the active player has used this phase: they matter only in the challenges phase
    used = m.var("used", Bool, index=ChType, init=either(False, OneOf(False, True)),
                 observable=lambda t: phase == "challenges")
    initiated = m.var("initiated", Int(0, 2), index=(Player, ChType), init=either(0, Range(0, 1)), observable=False)
    stage = m.var("stage", Stage, init="none")
    # the challenge under way (its type and players are shown only while it is), and the winner of the last one
    # (shown once it is resolved)
    ctype = m.var("ctype", ChType, init="military", observable=lambda: stage != "none")
    attacker = m.var("attacker", Player, init=Player[0].name, observable=lambda: stage != "none")
    defender = m.var("defender", Player, init=Player[1].name, observable=lambda: stage != "none")
    attacking = m.var("attacking", Bool, index=Char, init=False)
    defending = m.var("defending", Bool, index=Char, init=False)
    outcome = m.var("outcome", Outcome, init="nobody", observable=lambda: stage == "none")
    dominance = m.var("dominance", Bool, index=Player, init=False)
    # each player's power total (power gained or moved by other rules is modelled in claim.py, power.py and
    # unopposed.py: here only the rivals bonus changes it); it saturates at the scenario's bound
    power = m.var("power", Int(0, max_value), index=Player, init=either(0, values))
    # the title each player bears ("none": no title; a joust game never uses titles)
    title = m.var("title", Title, index=Player, init=either("none", OneOf("none", *TITLES)) if melee else "none")
    if melee:
        supports = m.static("supports", Bool, (Title, Title), lambda s, t: TITLES.get(s.name, (None, ()))[0] == t.name)
        rival = m.static("rival", Bool, (Title, Title), lambda s, t: t.name in TITLES.get(s.name, (None, ()))[1])
        # bookkeeping: how many rivals bonuses each player gained against each opponent this round
        rivals = m.var("rivals", Int(0, 2), index=(Player, Player), init=either(0, Range(0, 1)), observable=False)

    def clockwise(p: Term, steps: int = 1) -> Term:
        """The player ``steps`` seats clockwise of ``p`` (a state-dependent term)."""
        out: Term = order[(0 + steps) % players]
        for i, q in enumerate(order[1:], start=1):
            out = If(p == q, order[(i + steps) % players], out)
        return out

    def bump(x: Term) -> Term:
        """``x + 1``, saturating at the top of the ghost counters' range (2)."""
        return If(x >= 2, 2, x + 1)

    def been_active(p: Term) -> Term:
        """``p`` has been the active player this phase: a seat from the first player to the active player."""
        cases = []
        for f in range(players):
            for act in range(players):
                arc = {order[(f + k) % players].name for k in range((act - f) % players + 1)}
                if p.name in arc:
                    cases.append((first == order[f]) & (active == order[act]))
        return Or(*cases)

    if anywhere:
        # the rules' invariants where the round is observed: plots are revealed only during the plot phase;
        # gold is collected as income once per round, on becoming the active player in the marshaling phase,
        # and returned in the taxation phase; hands are checked against the reserve in the taxation phase;
        # only cards in play kneel; the challenge types used belong to the active player in the challenges
        # phase (and are cleared when the marshaling phase begins); at most one challenge of each type
        # per player, none by a player not yet active
        m.init_constraint(~revealed | (phase == "plot"))
        no_gold = (phase == "plot") | (phase == "draw") | (phase == "taxation")
        for q in Player:
            m.init_constraint(gold[q] <= income[q])
            m.init_constraint(~no_gold | (gold[q] == 0))
            m.init_constraint((phase != "marshaling") | been_active(q) | (gold[q] == 0))
            m.init_constraint((phase != "taxation") | (hand[q] <= reserve[q]))
            m.init_constraint((phase != "plot") | (hand[q] <= max_value))
            for t in ChType:
                fresh = (phase == "challenges") & ~been_active(q)
                m.init_constraint(~fresh | (initiated[q, t] == 0))
                mine = (phase == "challenges") & (active == q)
                m.init_constraint(~mine | ((initiated[q, t] == 1) == used[t]))
        for t in ChType:
            m.init_constraint((phase != "marshaling") | ~used[t])
        for c in Char:
            m.init_constraint(~knelt[c] | in_play[c])
    if anywhere and melee:
        # titles are selected after plots are revealed (1.4), in player order from the first player, no two the
        # same, and borne until they are returned (7.4); a rivals bonus is gained against a rival title's bearer
        # in the challenges phase, and recorded until the round ends
        after_challenges = Or(*(phase == ph for ph in PHASES[PHASES.index("challenges"):]))
        for i, q in enumerate(order):
            titled = title[q] != "none"
            m.init_constraint((phase == "plot") | titled)
            m.init_constraint((phase != "plot") | revealed | ~titled)
            m.init_constraint(~titled | (first == q) | (title[order[i - 1]] != "none"))
            for r in order[i + 1:]:
                m.init_constraint(~titled | (title[q] != title[r]))
            for r in order:
                if r.name == q.name:
                    m.init_constraint(rivals[q, r] == 0)
                else:
                    m.init_constraint((rivals[q, r] == 0) | (after_challenges & rival[title[q], title[r]]))

    def title_str(p: Term) -> Term:
        """In a melee game, the STR ``p``'s title adds to their total in the challenge under way: 1 in a challenge of
        the title's type in which ``p`` controls a participating character (Title Cards); otherwise 0."""
        takes_part = Or(*(attacking[c] | defending[c] for c in Char if owner.value(c.name) == p.name))
        return Sum(If(takes_part & (title[p] == ti) & (ctype == kind), plus, 0)
                   for ti, (kind, plus) in TITLE_STR.items() if kind in CHALLENGES)

    def become_active(a: Step, p: Term, when: Term, collect: Term) -> None:
        """When ``when`` holds, ``p`` becomes the active player (collecting income when ``collect`` holds)."""
        a.set(active, p, when=when)
        for q in Player:
            a.set(gold[q], gold[q] + income[q], when=when & collect & (q == p))
        for t in ChType:
            a.set(used[t], False, when=when)

    # ------------------------------------------------------------------ 1. plot phase
    @m.action(Player, Player, describe="plots are revealed; {w} wins initiative and chooses {f} as first player",
              cites=["1.3 Reveal plots", "Initiative", "First Player, First Player Token"])
    def reveal_plots(a: Step, w: Term, f: Term) -> None:
        init = a.choose("initiative", Int(0, max_value), index=Player)
        gold_value = a.choose("gold", Int(0, max_value), index=Player)
        reserve_value = a.choose("reserve", Int(0, max_value), index=Player)
        a.require((phase == "plot") & ~revealed)
        for q in Player:
            a.require(init[w] >= init[q])
            a.require((init[w] > init[q]) | (power[w] <= power[q]))  # a tie: the lowest power total wins
            a.set(initiative[q], init[q])
            a.set(income[q], gold_value[q])
            a.set(reserve[q], reserve_value[q])
        a.set(first, f)
        a.set(revealed, True)

    @m.action(Player, describe="a card ability reveals a new plot for {p}", cites=["1.3 Reveal plots", "Revealed Plot"])
    def ability_reveals_plot(a: Step, p: Term) -> None:
        init = a.choose("initiative", Int(0, max_value))
        gold_value = a.choose("gold", Int(0, max_value))
        reserve_value = a.choose("reserve", Int(0, max_value))
        a.require((phase == "plot") & revealed)
        a.set(initiative[p], init)
        a.set(income[p], gold_value)
        a.set(reserve[p], reserve_value)

    if melee:
        @m.action(Player, Title, where=lambda p, t: t.name != "none", describe="{p} selects the title {t}",
                  cites=["1.4 Select titles (melee format only)", "Title Cards, Title Pool (Melee game only)",
                         "Melee Game"])
        def select_title(a: Step, p: Term, t: Term) -> None:
            i = [x.name for x in order].index(p.name)
            a.require(revealed)  # step 1.3 is over (plots are revealed only in the plot phase)
            a.require(title[p] == "none")
            a.require((first == p) | (title[order[i - 1]] != "none"))  # in player order from the first player
            a.require(And(*(title[q] != t for q in Player if q.name != p.name)))  # from the title pool
            a.set(title[p], t)

    # ------------------------------------------------------------------ phase changes
    @m.action(describe="the phase ends and the next phase begins",
              cites=["Appendix I: Timing and Gameplay", "Framework Event Details"])
    def next_phase(a: Step) -> None:
        a.require(stage == "none")
        # 1.5 the plot phase ends once plots are revealed (and the first player chosen)
        ready = Or(phase != "plot", revealed)
        # 3.3 / 4.3: the phase ends once the rotation is back at the first player
        turning = (phase == "marshaling") | (phase == "challenges")
        a.require(ready & (~turning | (clockwise(active) == first)))
        if melee:
            a.require((phase != "plot") | And(*(title[q] != "none" for q in Player)))  # 1.4 every player selects
        follows = {p: PHASES[(i + 1) % len(PHASES)] for i, p in enumerate(PHASES)}
        for before, after in follows.items():
            a.set(phase, after, when=phase == before)
        # 2.2 draw
        a.set(revealed, False, when=phase == "plot")
        for q in Player:
            a.set(hand[q], hand[q] + 2, when=phase == "plot")
        # 3.2 / 4.2: the first player becomes the active player first
        become_active(a, first, (phase == "draw") | (phase == "marshaling"), phase == "draw")
        for q in Player:
            for t in ChType:
                a.set(initiated[q, t], 0, when=phase == "marshaling")
        # 5.2 determine dominance
        total = {q.name: Sum(If(in_play[c] & ~knelt[c], strength[c], 0) for c in Char if owner.value(c.name) == q.name)
                 + gold[q] for q in Player}
        if melee:  # the Crown Regent's bonus for dominance (Title Cards)
            regent, plus = "crown_regent", TITLE_STR["crown_regent"][1]
            total = {q.name: total[q.name] + If(title[q] == regent, plus, 0) for q in Player}
        for q in Player:
            others = [total[r.name] for r in Player if r.name != q.name]
            a.set(dominance[q], And(*(total[q.name] > o for o in others)), when=phase == "challenges")
        # 6.2 stand cards
        for c in Char:
            a.set(knelt[c], False, when=phase == "dominance")
        # 7.2 return unspent gold, 7.3 check reserve
        for q in Player:
            a.set(gold[q], 0, when=phase == "standing")
            a.set(hand[q], If(hand[q] > reserve[q], reserve[q], hand[q]), when=phase == "standing")
            a.set(dominance[q], False, when=phase == "taxation")
        if melee:
            # 7.4 return melee title cards (and the rivals bonuses of the round are forgotten)
            for q in Player:
                a.set(title[q], "none", when=phase == "taxation")
                for r in Player:
                    a.set(rivals[q, r], 0, when=phase == "taxation")
        # 1.1 a new round begins (the count saturates: later rounds look alike)
        a.set(round_, round_ + 1, when=(phase == "taxation") & (round_ < max_rounds))

    # ------------------------------------------------------------------ 3. marshaling / 4. challenges: turns
    @m.action(Player, describe="{p} passes; the next player becomes the active player",
              cites=["3.3 Next player becomes active player", "4.3 Next player becomes active player", "Player Order"])
    def end_turn(a: Step, p: Term) -> None:
        a.require(((phase == "marshaling") | (phase == "challenges")) & (active == p) & (stage == "none"))
        a.require(clockwise(p) != first)
        become_active(a, clockwise(p), lift(True), phase == "marshaling")

    @m.action(Player, Char, describe="{p} marshals {c}", cites=["Marshal", "Active Player", "Marshaling Phase"])
    def marshal(a: Step, p: Term, c: Term) -> None:
        if owner.value(c.name) != p.name:
            a.require(False)
        a.require(phase == "marshaling")
        a.require(active == p)
        a.require(~in_play[c] & (hand[p] >= 1) & (gold[p] >= cost[c]))
        a.set(in_play[c], True)
        a.set(knelt[c], False)
        a.set(hand[p], hand[p] - 1)
        a.set(gold[p], gold[p] - cost[c])

    # ------------------------------------------------------------------ 4.2 a challenge
    @m.action(Player, Player, ChType, describe="{p} initiates a {t} challenge against {q}",
              cites=["4.2 Active player may initiate a challenge", "Active Player",
                     "Attacker, Attacking Character, Attacking Player"])
    def initiate_challenge(a: Step, p: Term, q: Term, t: Term) -> None:
        attack = a.choose("attackers", Bool, index=Char)
        if p.name == q.name:
            a.require(False)
        a.require((phase == "challenges") & (stage == "none"))
        a.require(active == p)
        a.require(~used[t])
        if melee:
            a.require(~supports[title[p], title[q]])  # Supports
        for c in Char:
            if owner.value(c.name) != p.name:
                a.set(attacking[c], False)  # only the attacking player's own characters can attack
                continue
            a.require(~attack[c] | (in_play[c] & icon[c, t] & ~knelt[c]))
            a.set(knelt[c], True, when=attack[c])
            a.set(attacking[c], attack[c])
        a.require(Or(*(attack[c] for c in Char if owner.value(c.name) == p.name)))
        a.set(used[t], True)
        a.set(initiated[p, t], bump(initiated[p, t]))
        a.set(stage, "attack")
        a.set(ctype, t)
        a.set(attacker, p)
        a.set(defender, q)
        a.set(outcome, "nobody")

    @m.action(Player, describe="{q} declares defenders",
              cites=["4.2.1 Defending player declares defenders", "Defender, Defending Character, Defending Player"])
    def declare_defenders(a: Step, q: Term) -> None:
        defend = a.choose("defenders", Bool, index=Char)
        a.require((stage == "attack") & (defender == q))
        for c in Char:
            if owner.value(c.name) != q.name:
                a.set(defending[c], False)  # only the defending player's own characters can defend
                continue
            ok = in_play[c] & ~knelt[c] & icon[c, ctype] & ~attacking[c]
            a.require(~defend[c] | ok)
            a.set(knelt[c], True, when=defend[c])
            a.set(defending[c], defend[c])
        a.set(stage, "defend")

    @m.action(describe="STR is compared, the challenge winner is determined and the challenge ends",
              cites=["4.2.2 Compare STR to determine challenge winner", "Winning a Challenge", "4.2.6 Challenge ends"])
    def resolve_challenge(a: Step) -> None:
        a.require(stage == "defend")
        att = Sum(If(attacking[c], strength[c], 0) for c in Char)
        dfn = Sum(If(defending[c], strength[c], 0) for c in Char)
        if melee:  # the titles' STR bonuses
            att = att + Sum(If(attacker == p, title_str(p), 0) for p in Player)
            dfn = dfn + Sum(If(defender == p, title_str(p), 0) for p in Player)
        att_wins = (att >= dfn) & (att >= 1)
        def_wins = (dfn > att) & (dfn >= 1)
        a.set(outcome, If(att_wins, Outcome.attacker, If(def_wins, Outcome.defender, Outcome.nobody)))
        if melee:
            # 4.2.3 the rivals bonus: once per rival opponent per round
            for p in Player:
                gains = []
                for q in Player:
                    if p.name == q.name:
                        continue
                    beat = ((att_wins & (attacker == p) & (defender == q))
                            | (def_wins & (defender == p) & (attacker == q)))
                    bonus = beat & rival[title[p], title[q]] & (rivals[p, q] == 0)
                    a.set(rivals[p, q], bump(rivals[p, q]), when=bonus)
                    gains.append(bonus)
                a.set(power[p], If(power[p] >= max_value, max_value, power[p] + 1), when=Or(*gains))
        for c in Char:
            a.set(attacking[c], False)
            a.set(defending[c], False)
        a.set(stage, "none")

    # ------------------------------------------------------------------ card abilities
    @m.action(Char, describe="a card ability kneels {c}", cites=["Kneel, Kneeling, Knelt"])
    def kneel(a: Step, c: Term) -> None:
        a.require(in_play[c] & ~knelt[c])
        a.set(knelt[c], True)
    return m
