"""The common game interface that all four games implement.

Search, encoders, records and the service use only this module (and :mod:`games.cards`); they
never import a concrete game.  The vocabulary follows OpenSpiel:

* :class:`Game` - immutable facts and factory: name, player count, validated options, move
  text conversion, ``new_initial_state(rng)`` and ``state_from_deal(deal)``.
* :class:`State` - a mutable game position: ``current_player``, ``legal_moves()``,
  ``apply(move)``, ``clone()``, ``returns()``, ``observation(seat)``,
  ``information_state_key(seat)``, ``determinize(seat, rng)``, ``zones()``/``known_cards(seat)``.
* Moves are small hashable immutable values chosen by each game (ints or tuples of ints);
  ``game.move_to_text`` / ``game.parse_move`` convert to and from the canonical notation of
  ``docs/notation.md`` and ``game.describe_move`` gives a structured :class:`MoveInfo`.

Randomness is explicit: every random choice takes a ``random.Random`` passed by the caller.
All chance (the deal, the stock order) is fixed in the :class:`Deal` when a state is created, so
play has no chance nodes; a determinization redraws the hidden part of the deal.

Payoffs (``returns()``) are in bets, one float per seat, from each seat's own point of view,
and sum to zero.
"""

from __future__ import annotations

import builtins
import dataclasses
import math
import random
from dataclasses import dataclass
from typing import Any, Callable, Hashable, Iterable, Mapping, Sequence

from quansu.games.errors import CodedError, Text

Move = Hashable
TERMINAL = -1

#: HAND_ZONES[s]: the zone name of seat s's hand (``State.zones``), made once.
HAND_ZONES = tuple(f"hand{s}" for s in range(4))


class GameError(CodedError):
    """Base class of every rules-layer error (bad game, option, card, move or deal): a code with
    its parameters and the field it is about (:class:`games.errors.CodedError`); ``str()`` is
    the English message."""


class OptionError(GameError):
    """An unknown option name or a bad option value."""


class IllegalMoveError(GameError):
    """A move that is not legal in the state it was applied to."""


class MoveParseError(GameError):
    """A move text that does not parse in the game's notation."""


class DealError(GameError):
    """A deal that is impossible for the game (wrong counts, a card twice, ...)."""


def check_view_hand(
    game: "Game", seat: Any, hand: Sequence[int], counts: Sequence[int], dealt: int
) -> int:
    """Check the seat, the dealt counts and the own hand given to ``deal_for_view`` of a game
    that deals ``dealt`` cards to every seat; return the hand as a card mask.  Raises
    :class:`DealError` naming the bad argument (``seat``, ``counts[s]``, ``hand[i]``, ``hand``)."""
    from quansu.games.cards import card_str

    n = game.num_players
    title = game.title or game.name
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise DealError.of("seat_not_a_seat", "seat", seat=seat, n=n - 1)
    if len(counts) != n:
        raise DealError.of("entries_for_players", "counts", n_counts=len(counts), n=n)
    for s, c in enumerate(counts):
        if c != dealt:
            raise DealError.of("count_size", f"counts[{s}]", c=c, title=title, dealt=dealt)
    if len(hand) != dealt:
        raise DealError.of("hand_size", "hand", n_hand=len(hand), title=title, dealt=dealt)
    own = 0
    for i, c in enumerate(hand):
        if isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < 52:
            raise DealError.of("bad_card_id", f"hand[{i}]", c=c)
        if own >> c & 1:
            raise DealError.of("card_dealt_twice", "hand", card=card_str(c))
        own |= 1 << c
    return own


#: Bound on the magnitude of a numeric option that declares no range of its own.
NUMBER_LIMIT = 1e6


def _shown(value: Any, limit: int = 64) -> str:
    """``repr(value)`` cut to ``limit`` characters (error texts quote little of the input)."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**15:
        return f"{float(value):g}"
    r = repr(value)
    return r if len(r) <= limit else r[: limit - 3] + "..."


def _number(x: float) -> str:
    return f"{x:g}" if isinstance(x, float) else str(x)


@dataclass(frozen=True)
class OptionSpec:
    """One named rule option: its default, a one-line description, and what values are allowed.

    ``choices``: the allowed values for enumerated options (strings), else ``None``.
    ``type``: ``bool``, ``int``, ``float``, ``str`` or ``tuple`` (numbers; e.g. payment tables).
    ``minimum`` / ``maximum``: the range of a numeric option (every number of a ``tuple``);
    numbers are always finite, and an option without a range is bounded by
    +-:data:`NUMBER_LIMIT`.  Every numeric option of the shipped games declares its range
    (DescribeGames lists it; docs/api.md, "Option ranges").
    """

    name: str
    default: Any
    description: str
    choices: tuple | None = None
    type: type = object
    minimum: float | None = None
    maximum: float | None = None

    @property
    def kind(self) -> builtins.type:  # (``type`` here is the field above)
        return self.type if self.type is not object else type(self.default)

    @property
    def numeric(self) -> bool:
        return self.kind in (int, float, tuple)

    def bounds(self) -> tuple[float, float]:
        """The allowed range of a numeric option (each number of a tuple)."""
        lo = -NUMBER_LIMIT if self.minimum is None else self.minimum
        hi = NUMBER_LIMIT if self.maximum is None else self.maximum
        return lo, hi

    def check_range(self, value: Any) -> None:
        """Raise :class:`OptionError` when a numeric value (or any number of a tuple) lies
        outside :meth:`bounds`."""
        lo, hi = self.bounds()
        for x in self._numbers(value):
            if not lo <= x <= hi:
                allowed = f"{_number(lo)}..{_number(hi)}"
                if lo == 0 and x < 0:
                    raise OptionError.of(
                        "option_negative", name=self.name, value=_shown(x), allowed=allowed
                    )
                raise OptionError.of(
                    "option_out_of_range", name=self.name, value=_shown(x), allowed=allowed
                )

    def _finite(self, x: Any) -> None:
        if isinstance(x, float) and not math.isfinite(x):
            raise OptionError.of("option_not_finite", name=self.name, x=x)

    def validate(self, value: Any, check_range: bool = True) -> Any:
        """Return the value converted to the option's type, or raise :class:`OptionError`
        (``check_range``: also check :meth:`bounds`)."""
        t = self.kind
        if t is bool:
            if not isinstance(value, bool):
                raise OptionError.of("option_not_bool", name=self.name, value=_shown(value))
        elif t in (int, float):
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise OptionError.of("option_not_number", name=self.name, value=_shown(value))
            self._finite(value)
            if t is int and value != int(value):
                raise OptionError.of("option_not_whole", name=self.name, value=_shown(value))
            value = t(value)
        elif t is tuple:
            if not isinstance(value, (list, tuple)) or len(value) != len(self.default):
                raise OptionError.of(
                    "option_list_length",
                    name=self.name,
                    n_default=len(self.default),
                    value=_shown(value),
                )
            for v in value:
                if isinstance(v, bool) or not isinstance(v, (int, float)):
                    raise OptionError.of("option_not_numbers", name=self.name, value=_shown(value))
                self._finite(v)
            value = tuple(value)
        elif t is str:
            if not isinstance(value, str):
                raise OptionError.of("option_not_string", name=self.name, value=_shown(value))
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(repr(c) for c in self.choices)
            raise OptionError.of(
                "option_not_a_choice", name=self.name, value=_shown(value), allowed=allowed
            )
        if check_range or any(abs(x) > NUMBER_LIMIT for x in self._numbers(value)):
            self.check_range(value)  # a huge number never reaches a game's own checks
        return value

    def _numbers(self, value: Any) -> tuple:
        if not self.numeric:
            return ()
        return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def resolve_options(
    specs: Sequence[OptionSpec], given: Mapping[str, Any] | None, check_ranges: bool = True
) -> dict[str, Any]:
    """Defaults overridden by ``given``; unknown names or bad values raise :class:`OptionError`
    (``check_ranges``: numbers outside an option's range too)."""
    by_name = {s.name: s for s in specs}
    out = {s.name: s.default for s in specs}
    for name, value in (given or {}).items():
        spec = by_name.get(name)
        if spec is None:
            known = ", ".join(sorted(by_name))
            raise OptionError.of("option_unknown", value=_shown(name), known=known)
        out[name] = spec.validate(value, check_ranges)
    return out


@dataclass(frozen=True)
class Deal:
    """All chance of one game, fixed up front.

    ``hands[s]``: seat s's cards as dealt (card ids).  ``stock``: the face-down stock, top card
    first (Phỏm, Tấn; empty otherwise).  ``set_aside``: cards dealt to nobody.  ``trump``: Tấn's
    face-up trump card (or ``None``).  ``first``: the seat that acts first.  ``extra``: a
    game-specific frozen mapping as tuple of (key, value) pairs; game records cannot carry it,
    so the shipped games leave it empty and keep session context (first game of a session,
    previous winner) in options instead.
    """

    hands: tuple[tuple[int, ...], ...]
    first: int = 0
    stock: tuple[int, ...] = ()
    set_aside: tuple[int, ...] = ()
    trump: int | None = None
    extra: tuple[tuple[str, Any], ...] = ()

    def get(self, key: str, default: Any = None) -> Any:
        for k, v in self.extra:
            if k == key:
                return v
        return default


@dataclass(frozen=True)
class MoveInfo:
    """Structured form of a move, for encoders, the API and explanations.

    ``kind``: the move's kind in the game's notation (``"play"``, ``"pass"``, ``"draw"``, ``"eat"``,
    ``"lay"``, ``"send"``, ``"discard"``, ``"u"``, ``"swap"``, ``"done"``, ``"attack"``, ``"defend"``,
    ``"throw"``, ``"take"``, ``"declare"``, ``"decline"``).  ``cards``: the cards it moves, in
    notation order.  ``target``: the card defended against or the meld id sent to (or ``None``).
    ``melds``: for a Phỏm ``lay``, the melds as tuples of card ids.  ``combo``: for shedding games,
    the combination type (``"single"``, ``"pair"``, ``"straight"``, ...).
    """

    kind: str
    cards: tuple[int, ...] = ()
    target: int | None = None
    melds: tuple[tuple[int, ...], ...] = ()
    combo: str | None = None


class SeededOnUse:
    """``random.Random(seed)``, made only when something draws from it.  Most rule-based
    policies (Tấn's, Tiến lên's) never draw, and seeding a generator costs microseconds, paid
    on every playout of a paired evaluation and every network call of a search; a policy that
    draws gets exactly ``random.Random(seed)``'s numbers.  The generator's methods, once
    asked for, are kept on the instance, so later draws cost what they cost on the generator."""

    def __init__(self, seed: int):
        self._seed = seed
        self._rng: random.Random | None = None

    def __getattr__(self, name: str):
        # only called for names not on the instance: the generator's attributes
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self._seed)
        value = getattr(rng, name)
        if callable(value):
            setattr(self, name, value)
        return value


def policy_playout(
    state: "State", policy: Callable, rng: random.Random, stop: Callable[[], bool] | None = None
) -> list[float] | None:
    """Play ``state`` (mutated in place) to the end with ``policy(state, rng)`` (a move of the
    seat to act) for every seat; its payoffs, or None as soon as ``stop()`` (asked after every
    move) says so."""
    apply = state.apply_unchecked
    is_terminal = state.is_terminal
    if stop is None:
        while not is_terminal():
            apply(policy(state, rng))
        return state.returns()
    while not is_terminal():
        apply(policy(state, rng))
        if stop():  # a rule-based move can take milliseconds
            return None
    return state.returns()


@dataclass(frozen=True)
class SearchTuning:
    """How the search plays one game: every per-game setting, each chosen by measurement
    (docs/search.md, "Per-game tuning"), in one place.  DescribeGames lists them.

    ``playout``: the rollout policy of ``SearchConfig.playout="game"`` ("random" or
    "heuristic").  ``opponent_keys``: how opponents' nodes are keyed with ``"game"`` ("own",
    "observer" or "model").  ``endgame_cards``: leaves with at most this many cards still to
    play are valued by the exact endgame solver (0: off).  ``anchor``: the share of the root
    prior on the sparring bot's move (0: no anchor).  ``improve_worlds`` /
    ``improve_candidates``: the improvement step of levels 4-5 (worlds at level 5, candidate
    moves; 0 worlds: none).  ``improve_look``: worlds between two looks of its early stop (0:
    none; :class:`search.improve.ImproveConfig` ``look``).  ``improve_playout``: its rollout
    policy for every seat,
    ``"sparring"`` (the game's sparring bot) or ``"evaluator"`` (the guiding network's top move;
    a search without a network rolls out with the sparring bot).  ``analysis_worlds``:
    Analyze's default cap of sampled worlds per decision.  ``hint_worlds``: the most worlds a
    hint's candidates are measured on (0: a hint is the search's own ranking).  ``guided_leaf`` / ``guided_prior_temperature``: the
    network-guided search's leaf values ("rollout" or "evaluator") and prior temperature.
    """

    playout: str = "random"
    opponent_keys: str = "own"
    endgame_cards: int = 0
    anchor: float = 0.0
    improve_worlds: int = 0
    improve_candidates: int = 4
    improve_look: int = 0
    improve_playout: str = "sparring"
    analysis_worlds: int = 512
    hint_worlds: int = 128
    guided_leaf: str = "evaluator"
    guided_prior_temperature: float = 1.0


#: The Game attributes read from its :class:`SearchTuning` (attribute -> tuning field).
TUNING_ATTRIBUTES = {
    "search_playout": "playout",
    "search_opponent_keys": "opponent_keys",
    "search_endgame_cards": "endgame_cards",
    "search_anchor": "anchor",
    "search_improve_worlds": "improve_worlds",
    "search_improve_candidates": "improve_candidates",
    "search_improve_look": "improve_look",
    "search_improve_playout": "improve_playout",
    "analysis_worlds": "analysis_worlds",
    "hint_worlds": "hint_worlds",
}


class Game:
    """Immutable facts of one game at one player count with validated options.

    Subclasses set the class attributes and implement the abstract methods.
    """

    name: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 4
    option_specs: tuple[OptionSpec, ...] = ()
    #: Upper bound on the number of moves of one game (conformance checks it).
    max_moves: int = 1000
    #: Rules behaviour version; bump when any legal move or payoff changes.
    rules_version: int = 1
    #: How the search plays this game (:class:`SearchTuning`, one record per game); the
    #: ``search_*``, ``analysis_worlds`` and ``hint_worlds`` attributes below are read from it.
    tuning: SearchTuning = SearchTuning()
    #: The stake of a typical game, in bets: about the mean absolute payoff of a seat in a game
    #: of the rule-based bots (``python -m quansu.bench.stake``).  Analyze's default mark
    #: thresholds are fractions of it (``server.engine.THRESHOLD_FRACTIONS``), so that a
    #: mistake costs the same share of what a game is played for in every game.  A game whose
    #: options scale its payments sets it per instance (Tấn: its ``loss_amount``).
    stake: float = 1.0
    # Read from ``tuning`` (for every subclass, by ``__init_subclass__``).
    search_playout: str = SearchTuning.playout
    search_opponent_keys: str = SearchTuning.opponent_keys
    search_endgame_cards: int = SearchTuning.endgame_cards
    search_anchor: float = SearchTuning.anchor
    search_improve_worlds: int = SearchTuning.improve_worlds
    search_improve_candidates: int = SearchTuning.improve_candidates
    search_improve_look: int = SearchTuning.improve_look
    search_improve_playout: str = SearchTuning.improve_playout
    analysis_worlds: int = SearchTuning.analysis_worlds
    hint_worlds: int = SearchTuning.hint_worlds

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        for name, field in TUNING_ATTRIBUTES.items():
            if name in cls.__dict__:
                raise TypeError(
                    f"{cls.__name__}.{name}: set it in the game's tuning (SearchTuning.{field})"
                )
        cls.retune()

    @classmethod
    def retune(cls, **changes) -> None:
        """Replace fields of this game's :class:`SearchTuning` (``playout="random"`` ...) and
        the attributes read from it (for experiments: benchmarks comparing settings)."""
        cls.tuning = dataclasses.replace(cls.tuning, **changes)
        for name, field in TUNING_ATTRIBUTES.items():
            setattr(cls, name, getattr(cls.tuning, field))

    def __init__(self, num_players: int = 4, options: Mapping[str, Any] | None = None):
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise GameError.of("players_not_integer", self.name, num_players=num_players)
        if not self.min_players <= num_players <= self.max_players:
            raise GameError.of(
                "players_not_supported",
                self.name,
                num_players=num_players,
                min_players=self.min_players,
                max_players=self.max_players,
            )
        self.num_players = num_players
        # types and finite numbers first, then the game's own checks (whose messages are more
        # precise, e.g. a seat of this player count), then every option's range
        self.options: dict[str, Any] = resolve_options(
            self.option_specs, options, check_ranges=False
        )
        self.check_options()
        for spec in self.option_specs:
            spec.check_range(self.options[spec.name])

    # -- facts ---------------------------------------------------------------------------
    def check_options(self) -> None:
        """Hook for cross-option checks; raise :class:`OptionError`."""

    def options_diff(self) -> dict[str, Any]:
        """Only the options that differ from the defaults (as in a game record)."""
        return {
            s.name: self.options[s.name]
            for s in self.option_specs
            if self.options[s.name] != s.default
        }

    @classmethod
    def describe_options(cls) -> list[dict[str, Any]]:
        """Every option as data: name, default, description, allowed choices."""
        return [
            {
                "name": s.name,
                "default": s.default,
                "description": s.description,
                "choices": list(s.choices) if s.choices else None,
                "range": list(s.bounds()) if s.numeric else None,
            }
            for s in cls.option_specs
        ]

    def payoff_bound(self) -> float:
        """An upper bound on ``abs(returns()[s])`` in bets, used to scale values to [-1, 1]."""
        raise NotImplementedError

    # -- states --------------------------------------------------------------------------
    def new_initial_state(self, rng: random.Random) -> "State":
        """A new game with a deal drawn from ``rng``."""
        return self.state_from_deal(self.random_deal(rng))

    def random_deal(self, rng: random.Random) -> Deal:
        """A random :class:`Deal` drawn from ``rng``."""
        raise NotImplementedError

    def state_from_deal(self, deal: Deal) -> "State":
        """The initial state of ``deal``; raise :class:`DealError` for an impossible deal."""
        raise NotImplementedError

    def replay(self, deal: Deal, moves: Iterable[tuple[int, Move]]) -> "State":
        """Apply ``(seat, move)`` pairs to the initial state; raise :class:`IllegalMoveError`
        naming the index of the first bad move."""
        state = self.state_from_deal(deal)
        for i, (seat, move) in enumerate(moves):
            if state.current_player != seat:
                raise IllegalMoveError(state.out_of_turn_reason(seat, move), path=f"moves[{i}]")
            try:
                state.apply(move)
            except IllegalMoveError as e:
                raise IllegalMoveError.wrap(e, f"moves[{i}]") from None
        return state

    def deal_for_view(
        self,
        seat: int,
        hand: Sequence[int],
        counts: Sequence[int],
        moves: Sequence[tuple[int, Move]],
        rng: random.Random,
        *,
        first: int = 0,
        drawn: Sequence[int] = (),
        trump: int | None = None,
    ) -> Deal:
        """A full :class:`Deal` consistent with what ``seat`` knows, for replaying a seat's view.

        ``hand``: ``seat``'s cards as dealt; ``counts[s]``: how many cards seat s was dealt;
        ``moves``: the public history ``(seat, move)``; ``drawn``: the cards ``seat`` drew from
        the stock, in order; ``trump``: Tấn's face-up card.  Cards ``seat`` cannot see are drawn
        with ``rng`` among those consistent with the history (an opponent holds every card it
        later plays from its hand).  Raise :class:`DealError` (naming the field) or
        :class:`IllegalMoveError` (naming ``moves[i]``) when no such deal exists.
        """
        raise NotImplementedError

    # -- moves ---------------------------------------------------------------------------
    def move_to_text(self, move: Move) -> str:
        """Canonical text of a move (the notation of docs/notation.md)."""
        raise NotImplementedError

    def parse_move(self, text: str) -> Move:
        """Parse move text (case-insensitive); raise :class:`MoveParseError` naming the text."""
        raise NotImplementedError

    def describe_move(self, move: Move) -> MoveInfo:
        """Structured form of a move."""
        raise NotImplementedError

    def heuristic_move(self, state: "State", rng: random.Random) -> Move:
        """The rule-based club-player policy's move for the seat to act (uses only that seat's
        information)."""
        raise NotImplementedError

    def sparring_move(self, state: "State", rng: random.Random) -> Move:
        """The strong rule-based "sparring" policy's move for the seat to act (uses only that
        seat's information): the baseline that search levels are measured against.  Games
        without one fall back to :meth:`heuristic_move`."""
        return self.heuristic_move(state, rng)

    def heuristic_playout(
        self, state: "State", rng: random.Random, stop: Callable[[], bool] | None = None
    ) -> list[float] | None:
        """Play ``state`` (mutated in place) to the end with :meth:`heuristic_move` for every
        seat and return its payoffs (``returns()``), or None as soon as ``stop()`` (asked after
        every move) says so.  The search's heuristic playouts (search/evaluator.py).  Games may
        override it with a faster loop that plays the same moves with the same draws from
        ``rng``."""
        return policy_playout(state, self.heuristic_move, rng, stop)

    def move_reasons(self, state: "State", seat: int, move: Move) -> list:
        """Why ``seat`` might play ``move`` in ``state`` (a state consistent with that seat's
        view): the game's own explanation, a list of ``(code, cards, combo, text)`` tuples
        (:mod:`games.reasons`).  By default the ``move_reasons`` function of the ``reasons``
        module beside the game's module (``games/<game>/reasons.py``), or none."""
        import importlib

        package = type(self).__module__.rpartition(".")[0]
        try:
            module = importlib.import_module(f"{package}.reasons")
        except ModuleNotFoundError as e:
            if e.name != f"{package}.reasons":
                raise
            return []
        return list(module.move_reasons(state, seat, move))

    # -- moves and cards as players read them (games/labels.py) ---------------------------------
    def _labels(self):
        """The game's naming and ordering module, ``games/<game>/labels.py`` beside the game's
        module (:mod:`games.labels`: ``label``, ``GROUPS``, ``GROUP_TERMS``, ``card_key``,
        ``move_group``, ``move_key``); a game without one (a test's toy game) gets the shared
        defaults: the default terms, a group per move kind, cards by rank then suit."""
        import importlib

        package = type(self).__module__.rpartition(".")[0]
        try:
            return importlib.import_module(f"{package}.labels")
        except ModuleNotFoundError as e:
            if e.name != f"{package}.labels":
                raise
        from types import SimpleNamespace

        from quansu.games.cards import rank_of, suit_of
        from quansu.games.labels import KIND_TERMS, default_label

        return SimpleNamespace(
            label=lambda info, lang: default_label(info, KIND_TERMS, lang),
            GROUPS=(),
            GROUP_TERMS={},
            card_key=lambda card, trump=None: (rank_of(card), suit_of(card)),
            move_group=lambda info: info.kind,
            move_key=lambda info, trump: (info.kind,),
        )

    def move_label(self, move: Move, lang: str = "") -> str:
        """``move`` as a player says it, in ``lang`` (``"vi"``: Vietnamese; anything else:
        English), with the game's own terms and the cards written ``3♠ 10♥``."""
        return self._labels().label(self.describe_move(move), lang)

    def move_group(self, move: Move) -> str:
        """The group a player puts ``move`` in (one of :meth:`move_groups`)."""
        return self._labels().move_group(self.describe_move(move))

    def move_groups(self) -> tuple[str, ...]:
        """The game's groups of moves, in a player's order."""
        return tuple(self._labels().GROUPS)

    def group_label(self, group: str, lang: str = "") -> str:
        """What the group ``group`` is called in ``lang`` (the game's terms, else the shared
        ones of :data:`games.labels.GROUP_TERMS`; the group's own name when neither has it)."""
        from quansu.games.labels import GROUP_TERMS, pick

        pair = self._labels().GROUP_TERMS.get(group) or GROUP_TERMS.get(group)
        return group if pair is None else pick(pair, lang)

    def card_sort_key(self, card: int, trump: int | None = None) -> tuple:
        """A card's place in the game's rank order (Phỏm's ace low; Tấn's trumps last, with
        ``trump`` the face-up card)."""
        return self._labels().card_key(card, trump)

    def sort_cards(self, cards: Iterable[int], trump: int | None = None) -> list[int]:
        """``cards`` in the game's rank order (:meth:`card_sort_key`)."""
        return sorted(cards, key=lambda c: self.card_sort_key(c, trump))

    def sort_moves(self, moves: Iterable[Move], trump: int | None = None) -> list[Move]:
        """``moves`` in a player's order: grouped by kind in the order of :meth:`move_groups`,
        from the lowest to the highest within a group (the game's ``move_key``), then by their
        canonical text."""
        labels = self._labels()
        order = {g: i for i, g in enumerate(labels.GROUPS)}

        def key(move):
            info = self.describe_move(move)
            return (
                order.get(labels.move_group(info), len(order)),
                labels.move_key(info, trump),
                self.move_to_text(move),
            )

        return sorted(moves, key=key)

    def suit_variant_key(self, move: Move) -> Hashable:
        """What ``move`` is up to its suits: legal moves with equal keys are the same play in
        other suits (Tiến lên's and Sâm lốc's plays: the combination and its ranks), which a hint
        shows as one row when they measure the same (docs/api.md, "Suit variants").  By default
        the move itself: the game's suits matter (a Phỏm discard, Tấn's trumps); a game's
        ``labels.py`` opts in with ``variant_key(info)`` (None: the move itself)."""
        fn = getattr(self._labels(), "variant_key", None)
        key = fn(self.describe_move(move)) if fn is not None else None
        return ("move", move) if key is None else ("variant", key)

    def variants_label(self, move: Move, count: int, every: bool, lang: str = "") -> str:
        """A row of ``count`` suit variants of ``move``'s play (:meth:`suit_variant_key`) as a
        player reads it in ``lang``: the play without its suits when ``every`` legal choice of
        suits is in the row ("straight 3-4-5-6-7, any suits", "đánh sảnh 3-4-5-6-7 bất kỳ
        chất"), else the move with its suits and how many other choices the row holds
        ("straight 3♠ 4♥ 5♦ 6♣ 7♠ (+2 in other suits)"); a game without suit-free plays
        names the move (:meth:`move_label`)."""
        fn = getattr(self._labels(), "variants_label", None)
        if fn is None:
            return self.move_label(move, lang)
        return fn(self.describe_move(move), lang, count, every)

    def __repr__(self) -> str:
        diff = self.options_diff()
        return f"{type(self).__name__}(players={self.num_players}, options={diff})"


class State:
    """A mutable position.  ``apply`` mutates in place; use ``clone`` to branch.

    Subclasses implement every method below.  A state may also implement the interface without
    deriving from this class (taking its default methods as plain functions): the Tiến lên and
    Tấn states do, because compiled they are extension types, which cannot derive from a Python
    class.  Nothing relies on ``isinstance(state, State)``.
    """

    game: Game

    @property
    def current_player(self) -> int:
        """Seat to act, or :data:`TERMINAL` (-1) when the game is over."""
        raise NotImplementedError

    def is_terminal(self) -> bool:
        return self.current_player == TERMINAL

    def legal_moves(self) -> list[Move]:
        """Legal moves of the seat to act, in a deterministic order; empty iff terminal."""
        raise NotImplementedError

    def apply(self, move: Move) -> None:
        """Play ``move`` for the seat to act.  An illegal move raises :class:`IllegalMoveError`
        and leaves the state unchanged."""
        raise NotImplementedError

    def apply_unchecked(self, move: Move) -> None:
        """Apply a move known to come from ``legal_moves()`` (search fast path)."""
        self.apply(move)

    def out_of_turn_reason(self, seat: int, move: Move) -> Text:
        """Why ``seat``'s ``move`` is refused when another seat is to act: the reason part of a
        ``moves[i]: ...`` error.  A game overrides it to say what its protocol expects instead
        (for example an answer that an older dialect left out)."""
        return Text("out_of_turn", seat=seat, current_player=self.current_player)

    def clone(self) -> "State":
        """An independent copy."""
        raise NotImplementedError

    def returns(self) -> list[float]:
        """Payoff per seat in bets at the end of the game (zeros before the end); sums to zero."""
        raise NotImplementedError

    def settlement(self) -> list[tuple[int, int, float]]:
        """The end-of-game transfers ``(payer, payee, amount)`` in bets (empty before the end)."""
        raise NotImplementedError

    @property
    def deal(self) -> Deal:
        raise NotImplementedError

    @property
    def history(self) -> list[tuple[int, Move]]:
        """Every ``(seat, move)`` applied so far, in order."""
        raise NotImplementedError

    def trump_card(self) -> int | None:
        """The deal's trump card, ``deal.trump`` (public in the games that have one; None in
        the others).  Games whose ``deal`` is rebuilt on each call (a sampled world's deal,
        from its permutation of the hidden cards) override it with a direct read."""
        return self.deal.trump

    def observation(self, seat: int) -> Hashable:
        """Everything ``seat`` may know, as a hashable immutable value (game-specific).

        Two states that ``seat`` cannot tell apart have equal observations.
        """
        raise NotImplementedError

    def information_state_key(self, seat: int) -> Hashable:
        """A hashable key equal for states that ``seat`` cannot tell apart."""
        return self.observation(seat)

    def sibling_key(self, seat: int) -> Hashable:
        """:meth:`information_state_key` among *siblings*: states reached by one same move from
        states that one seat could not tell apart (the seat that moved; its key fixes the
        history).  Two siblings have equal sibling keys exactly when ``seat`` cannot tell them
        apart.  The search keys a tree edge's children by it (search/ismcts.py).  By default
        the full key; a game whose key holds the whole history and whose moves are all public
        answers with the part that siblings can differ in (Tấn: the seat's hand), so that the
        search does not hash the history at every step of its walk."""
        return self.information_state_key(seat)

    def determinize(self, seat: int, rng: random.Random) -> "State":
        """A new state drawn with ``rng`` that ``seat`` cannot tell from this one: same
        observation for ``seat``, every card whose place ``seat`` knows stays there, and the
        cards ``seat`` cannot locate are redrawn among the hidden places with the same counts."""
        raise NotImplementedError

    def zones(self) -> dict[str, int]:
        """Where every card is: zone name -> card mask.  Masks are disjoint and cover all 52
        cards.  Seat s's hand is the zone ``f"hand{s}"``; other names are the game's own
        (``"stock"``, ``"table"``, ``"discard"``, ``"set_aside"``, ...)."""
        raise NotImplementedError

    def zone_sizes(self) -> dict[str, int]:
        """Zone name -> number of cards in it (public in every game), the keys of
        :meth:`zones`.  Games may override it with a faster count."""
        return {name: mask.bit_count() for name, mask in self.zones().items()}

    def known_cards(self, seat: int) -> dict[str, int]:
        """Zone name -> mask of the cards of that zone whose place ``seat`` knows."""
        raise NotImplementedError

    def render(self, seat: int) -> str:
        """Multi-line human-readable text of what ``seat`` sees (its hand sorted, the table,
        hand sizes, whose turn), for the terminal game and debugging."""
        raise NotImplementedError

    def endgame_size(self) -> int | None:
        """How much play is left, in the game's unit (cards still to be played), for the exact
        endgame solver (:mod:`search.endgame`); None (the default) when the game does not
        support exact endgames."""
        return None

    def endgame_key(self) -> Hashable:
        """A hashable key of the whole position (every hand, the stock's order, the trick, the
        money so far) such that two states with equal keys have the same legal moves, the same
        continuations and the same payoffs: the transposition key of the exact endgame solver.
        Only called when :meth:`endgame_size` is not None."""
        raise NotImplementedError

    def __str__(self) -> str:
        return f"<{self.game.name} state, {len(self.history)} moves>"
