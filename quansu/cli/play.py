"""``quansu play``: a terminal game for one human seat against bot seats.

The other seats are quansu bots at a strength level (``--level 1..5``, the same bots as the
service's ``Suggest`` with ``strength``), or ``--bot heuristic`` / ``--bot random``.

Commands at the prompt: a move in canonical notation (``3S 4S 5H``, ``pass``, ``draw``, ...)
or as listed (``bỏ lượt``, ``đánh đôi 9♦ 9♥`` in Vietnamese), its number in the listed legal
moves, ``moves`` to list them again, ``hint`` (quansu's advice and ranked moves for your seat,
from your information only; ``hint details`` with the statistics), ``help``, ``quit``.
Bad input is answered with a message and a new prompt, never a traceback.  The legal moves are
listed in a player's order (:func:`moves_listing`: grouped by kind, low to high in the game's
rank order).  Texts in ``--lang vi|en`` (default: the locale; :mod:`quansu.cli.i18n`): in Vietnamese
the table is drawn from the game's zones (:func:`table_text`, the hand in the game's order with
the cards written 3♠ 10♥), every move is named as a player says it (:func:`move_name`) and the
hints' reasons come in Vietnamese.

``--save FILE`` writes the game as a ``quansu-record/1`` file when it ends (or, unfinished,
when you quit), ready for ``quansu analyze FILE``.
"""

from __future__ import annotations

import argparse
import random
import sys

from quansu.cli.i18n import error_text, lang_of, t, zone_name
from quansu.games import GameError, make


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--game", default="tienlen", help="tienlen, phom, samloc or tan")
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--seed", type=int, default=None, help="seed of the deal and the bots")
    p.add_argument("--seat", type=int, default=0, help="your seat (0-based)")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a rule option (JSON value), repeatable",
    )
    p.add_argument(
        "--bot",
        choices=("level", "heuristic", "random"),
        default="level",
        help="the other seats: quansu at --level (default), the heuristic bot, or random",
    )
    p.add_argument(
        "--level",
        type=int,
        default=3,
        choices=range(1, 6),
        help="strength level 1 (weakest) .. 5 (full strength) of the quansu bots",
    )
    p.add_argument("--hint-iterations", type=int, default=400, help="search budget of 'hint'")
    p.add_argument(
        "--save",
        metavar="FILE",
        help="write the game as a quansu-record/1 file (for quansu analyze)",
    )


def parse_options(pairs: list[str], lang: str = "en") -> dict:
    import json

    out = {}
    for pair in pairs:
        if "=" not in pair:
            raise GameError(t("play_bad_option", lang, option=pair))
        name, value = pair.split("=", 1)
        try:
            out[name] = json.loads(value)
        except json.JSONDecodeError:
            out[name] = value
    return out


class _Bots:
    """The other seats' move choice; the search engine is loaded only when first needed."""

    def __init__(
        self, kind: str, level: int, seed: int | None, hint_iterations: int, lang: str = "en"
    ):
        self.kind, self.level, self.hint_iterations = kind, level, hint_iterations
        self.lang = lang
        self.rng = random.Random(seed)
        self._engine = None

    @property
    def engine(self):
        if self._engine is None:
            from quansu.server.engine import build_engine

            self._engine = build_engine()
        return self._engine

    def move(self, game, state):
        if self.kind == "random":
            return self.rng.choice(state.legal_moves())
        if self.kind == "heuristic":
            return game.heuristic_move(state, self.rng)
        resp = self.engine.suggest_for_state(
            state, strength=self.level, seed=self.rng.randrange(1 << 31)
        )
        return game.parse_move(resp.chosen.text)

    def hint(self, state, details: bool = False) -> str:
        from quansu.cli.hint import format_table

        # strength 0: a hint, measured like the service's (docs/api.md, "A hint is measured");
        # no seed: the view's own (the same position asked twice gets the same advice)
        resp = self.engine.suggest_for_state(
            state, strength=0, iterations=self.hint_iterations, top_k=5, language=self.lang
        )
        return format_table(resp, self.lang, details=details)


def move_name(game, move, lang: str = "en") -> str:
    """How the command names a move: in Vietnamese as a player says it, with the game's own
    terms and the cards written 3♠ 10♥ (:meth:`games.base.Game.move_label`: "đánh đôi 9♦ 9♥",
    "bỏ lượt", "ăn 7♥", "đỡ 7♠ bằng 9♠"); in English in the notation a player types
    (docs/notation.md)."""
    return game.move_label(move, "vi") if lang == "vi" else game.move_to_text(move)


def moves_listing(game, moves: list, lang: str = "en") -> str:
    """``moves`` (in a player's order, :meth:`games.base.Game.sort_moves`) numbered from 0, one
    line per group of moves (:meth:`games.base.Game.move_group`: singles, pairs, straights,
    bombs; draw or eat; attack, defend, take ...) headed by the group's name in ``lang``."""
    lines: list[tuple[str, list[str]]] = []
    for i, move in enumerate(moves):
        group = game.group_label(game.move_group(move), lang)
        if not lines or lines[-1][0] != group:
            lines.append((group, []))
        lines[-1][1].append(f"[{i}] {move_name(game, move, lang)}")
    return "\n".join(f"  {group}: {', '.join(items)}" for group, items in lines)


def table_text(state, seat: int, lang: str = "en", last: int = 4) -> str:
    """What ``seat`` sees, in ``lang``: in English the game's own rendering
    (:meth:`games.base.State.render`); in Vietnamese one drawn from the zones every game has
    (its hand, the cards left per seat, every other zone's size and the cards of it the seat
    knows), the last moves in words and who is to act."""
    if lang != "vi":
        return state.render(seat)
    from quansu.games.cards import SUIT_SYMBOLS, cards_of, suit_of
    from quansu.games.labels import cards_label

    game = state.game
    n = game.num_players
    sizes = state.zone_sizes()
    known = state.known_cards(seat)
    trump = state.trump_card()

    def cards(mask: int) -> str:  # as a player holds them: the game's order, 10♥
        return cards_label(game.sort_cards(cards_of(mask), trump))

    lines = [t("view_title", lang, title=game.title or game.name, players=n, seat=seat)]
    hand = known.get(f"hand{seat}", 0)
    lines.append(t("view_hand", lang, cards=cards(hand) if hand else t("view_empty", lang)))
    lines.append(
        t(
            "view_counts",
            lang,
            items=", ".join(
                t("view_count", lang, seat=s, count=sizes.get(f"hand{s}", 0)) for s in range(n)
            ),
        )
    )
    for name, count in sizes.items():
        if name.startswith("hand") or not count:
            continue
        mask = known.get(name, 0)
        if mask:
            lines.append(
                t(
                    "view_zone_known",
                    lang,
                    zone=zone_name(name, lang),
                    count=count,
                    cards=cards(mask),
                )
            )
        else:
            lines.append(t("view_zone", lang, zone=zone_name(name, lang), count=count))
    if trump is not None:  # Tấn: the face-up trump card
        lines.append(
            t("view_trump", lang, suit=SUIT_SYMBOLS[suit_of(trump)], card=cards_label((trump,)))
        )
    recent = state.history[-last:] if last else []
    if recent:
        lines.append(
            t(
                "view_last",
                lang,
                items="; ".join(
                    f"{t('seat', lang, seat=s)} {move_name(game, m, lang)}" for s, m in recent
                ),
            )
        )
    if state.is_terminal():
        lines.append(t("view_over", lang))
    else:
        cur = state.current_player
        who = t("you", lang) if cur == seat else t("seat", lang, seat=cur)
        lines.append(t("view_to_act", lang, who=who))
    return "\n".join(lines)


def save_game(state, path: str, out, lang: str = "en") -> int:
    """Write ``state``'s game as a record to ``path``; 0, or 2 when it cannot be written."""
    from quansu.games import record as rec

    try:
        rec.write_json(rec.record_from_state(state), path)
    except OSError as e:
        print(
            t(
                "error",
                lang,
                message=t("play_save_failed", lang, path=path, reason=e.strerror or e),
            ),
            file=sys.stderr,
        )
        return 2
    print(t("play_saved", lang, path=path), file=out)
    return 0


def _check_save(path: str | None, lang: str) -> str | None:
    """Why ``--save path`` cannot be written, or None."""
    if not path:
        return None
    from pathlib import Path

    p = Path(path)
    if p.is_dir():
        return t("play_save_is_folder", lang, path=path)
    if not p.resolve().parent.is_dir():
        return t("play_save_no_folder", lang, folder=p.resolve().parent)
    return None


def run(args, input_fn=input, out=sys.stdout) -> int:
    lang = lang_of(args)
    save = getattr(args, "save", None)
    why = _check_save(save, lang)
    if why:
        print(t("error", lang, message=why), file=sys.stderr)
        return 2
    try:
        game = make(args.game, args.players, parse_options(args.option, lang))
    except GameError as e:
        print(t("error", lang, message=error_text(e, lang)), file=sys.stderr)
        return 2
    if not 0 <= args.seat < game.num_players:
        print(
            t(
                "error",
                lang,
                message=t("play_seat_range", lang, seat=args.seat, last=game.num_players - 1),
            ),
            file=sys.stderr,
        )
        return 2
    rng = random.Random(args.seed)
    state = game.new_initial_state(rng)
    bots = _Bots(args.bot, args.level, args.seed, args.hint_iterations, lang)

    def finish(code: int) -> int:
        if save and state.history:
            return save_game(state, save, out, lang) or code
        return code

    me = args.seat
    print(
        t("play_start", lang, title=game.title or game.name, players=game.num_players, seat=me),
        file=out,
    )

    while not state.is_terminal():
        seat = state.current_player
        if seat != me:
            move = bots.move(game, state)
            state.apply(move)
            print(t("play_bot_move", lang, seat=seat, move=move_name(game, move, lang)), file=out)
            continue
        legal = game.sort_moves(state.legal_moves(), state.trump_card())  # a player's order
        print("", file=out)
        print(table_text(state, me, lang), file=out)
        print(t("play_moves", lang, moves=moves_listing(game, legal, lang)), file=out)
        while True:
            try:
                line = input_fn(t("play_prompt", lang)).strip()
            except EOFError:
                print("\n" + t("play_bye", lang), file=out)
                return finish(0)
            if line in ("quit", "exit"):
                return finish(0)
            if line in ("", "help"):
                print(t("play_help", lang), file=out)
                continue
            if line in ("hint", "hint details"):
                print(bots.hint(state, details=line == "hint details"), file=out)
                continue
            if line == "moves":
                print(moves_listing(game, legal, lang), file=out)
                continue
            if line.isdigit():
                if int(line) >= len(legal):
                    print(t("play_no_number", lang, number=line, last=len(legal) - 1), file=out)
                    continue
                line = game.move_to_text(legal[int(line)])
            named = {" ".join(move_name(game, m, lang).casefold().split()): m for m in legal}
            said = " ".join(line.casefold().split())
            if said in named:  # a move typed as listed ("bỏ lượt", "đánh 3♠")
                line = game.move_to_text(named[said])
            try:
                move = game.parse_move(line)
            except GameError as e:
                print(t("play_not_a_move", lang, message=error_text(e, lang)), file=out)
                continue
            if move not in legal:
                print(t("play_not_legal", lang, move=game.move_to_text(move)), file=out)
                continue
            state.apply(move)
            print(t("play_my_move", lang, seat=me, move=move_name(game, move, lang)), file=out)
            break
    print("", file=out)
    print(t("play_game_over", lang), file=out)
    for payer, payee, amount in state.settlement():
        print(t("play_transfer", lang, payer=payer, payee=payee, amount=f"{amount:g}"), file=out)
    ret = state.returns()
    print(
        t(
            "play_net",
            lang,
            items=", ".join(
                t("view_count", lang, seat=s, count=f"{r:+g}") for s, r in enumerate(ret)
            ),
        ),
        file=out,
    )
    return finish(0)
