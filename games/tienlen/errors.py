"""Tiến lên's own error texts in English and Vietnamese (codes ``tienlen.*``): the rules layer's
errors of this game carry one of these codes (:mod:`games.errors`, which renders them)."""

from __future__ import annotations

from quansu.games.errors import Text, register

#: code -> (English, Vietnamese), ``str.format`` templates with the same fields.
TEXTS: dict[str, tuple[str, str]] = register(
    {
        "tienlen.already_played": ("{cards} was already played", "{cards} đã được đánh"),
        "tienlen.bad_card_id": (
            "bad card id {c!r} (expected 0..51)",
            "mã lá bài sai {c!r} (cần 0..51)",
        ),
        "tienlen.bad_move_cards": ("bad move {text!r}: {error}", "nước sai {text!r}: {error}"),
        "tienlen.card_dealt_twice": ("card {card} dealt twice", "lá {card} bị chia hai lần"),
        "tienlen.does_not_beat": (
            "{text} does not beat {top_text} (its top card is lower)",
            "{text} không chặn được {top_text} (lá cao nhất của nó nhỏ hơn)",
        ),
        "tienlen.expected_deal": ("expected a Deal, got {type}", "cần một Deal, nhận {type}"),
        "tienlen.expected_seat_move": (
            "expected (seat, move), got {item!r}",
            "cần (ghế, nước đi), nhận {item!r}",
        ),
        "tienlen.first_cannot_lead": (
            "seat {first} cannot lead: seat {seat} holds a lower card ({cards})",
            "ghế {first} không thể đi trước: ghế {seat} có lá nhỏ hơn ({cards})",
        ),
        "tienlen.first_lead_holder": (
            "seat {first} leads but the lowest dealt card {card} is held "
            "by seat {holder} (first_lead_requires_3_spades)",
            "ghế {first} đi trước nhưng lá nhỏ nhất được chia {card} ở "
            "trên tay ghế {holder} (first_lead_requires_3_spades)",
        ),
        "tienlen.first_lead_must_contain": (
            "the first lead must contain {cards} (first_lead_requires_3_spades)",
            "nước đi đầu tiên phải có {cards} (first_lead_requires_3_spades)",
        ),
        "tienlen.first_must_hold": (
            "seat {first} leads the first game, so it must hold {card} "
            "(first_lead_requires_3_spades)",
            "ghế {first} đi trước ván đầu, nên phải có {card} (first_lead_requires_3_spades)",
        ),
        "tienlen.first_out_of_range": (
            "seat {first!r} out of range 0..{n}",
            "ghế {first!r} ngoài khoảng 0..{n}",
        ),
        "tienlen.game_over": ("the game is over", "ván đã hết"),
        "tienlen.hand_size": (
            "{n_hand} cards, Tiến lên deals {NUM_DEALT}",
            "{n_hand} lá, Tiến lên chia {NUM_DEALT} lá",
        ),
        "tienlen.hands_for_players": (
            "{n_hands} hands for {n} players",
            "{n_hands} tay bài cho {n} người chơi",
        ),
        "tienlen.lead_cannot_pass": (
            "seat {seat} leads and cannot pass",
            "ghế {seat} đi đầu vòng nên không được bỏ lượt",
        ),
        "tienlen.lowest_dealt_card": ("the lowest dealt card", "lá nhỏ nhất được chia"),
        "tienlen.move_empty": (
            "empty move: expected cards like '9D 9H' or 'pass'",
            "nước đi rỗng: cần các lá như '9D 9H' hoặc 'pass'",
        ),
        "tienlen.move_not_combination": (
            "bad move {text!r}: {cards} is not a Tiến lên combination",
            "nước sai {text!r}: {cards} không phải bộ bài Tiến lên",
        ),
        "tienlen.move_not_text": (
            "bad move {text!r}: expected text like '3S 4S 5H' or 'pass'",
            "nước sai {text!r}: cần chữ như '3S 4S 5H' hoặc 'pass'",
        ),
        "tienlen.no_consistent_deal": (
            "no deal is consistent with this view (instant wins or first lead)",
            "không có cách chia bài nào khớp với phần nhìn này (tới trắng hoặc nước đi đầu)",
        ),
        "tienlen.no_extra": (
            "Tiến lên uses no extra fields (got {extra!r})",
            "Tiến lên không dùng trường thêm nào (nhận {extra!r})",
        ),
        "tienlen.no_stock": ("Tiến lên has no stock", "Tiến lên không có nọc"),
        "tienlen.no_stock_to_draw": (
            "Tiến lên has no stock to draw from",
            "Tiến lên không có nọc để bốc",
        ),
        "tienlen.no_trump": ("Tiến lên has no trump", "Tiến lên không có chủ"),
        "tienlen.not_a_move_in_moves": (
            "{m!r} is not a Tiến lên move",
            "{m!r} không phải nước đi Tiến lên",
        ),
        "tienlen.not_a_move_value": (
            "{move!r} is not a Tiến lên move (a card mask or 0 for pass)",
            "{move!r} không phải nước đi Tiến lên (một mặt nạ lá hoặc 0 là bỏ lượt)",
        ),
        "tienlen.not_combination": (
            "{text} is not a Tiến lên combination",
            "{text} không phải bộ bài Tiến lên",
        ),
        "tienlen.not_in_hand": (
            "{cards} is not in seat {seat}'s hand",
            "{cards} không có trên tay ghế {seat}",
        ),
        "tienlen.not_legal_now": ("{text} is not legal now", "{text} không hợp lệ lúc này"),
        "tienlen.option_negative": (
            "option {name!r}: must be >= 0, got {o!r}",
            "tùy chọn {name!r}: phải >= 0, nhận {o!r}",
        ),
        "tienlen.passed_may_only_pass": (
            "seat {seat} passed this round and may only pass",
            "ghế {seat} đã bỏ lượt ở vòng này nên chỉ được bỏ lượt",
        ),
        "tienlen.passed_may_pass_or_sequence": (
            "seat {seat} passed this round and may only pass or "
            "play a 4 pair sequence that beats the top",
            "ghế {seat} đã bỏ lượt ở vòng này nên chỉ được bỏ lượt hoặc chặt bằng bốn đôi thông",
        ),
        "tienlen.rank_payments_length": (
            "option 'rank_payments': expected 2 numbers (last->first, third->second)",
            "tùy chọn 'rank_payments': cần 2 số (bét->nhất, ba->nhì)",
        ),
        "tienlen.rank_payments_negative": (
            "option 'rank_payments': amounts must be >= 0, got {o!r}",
            "tùy chọn 'rank_payments': số tiền phải >= 0, nhận {o!r}",
        ),
        "tienlen.seat_out_of_range": (
            "seat {s!r} out of range 0..{n}",
            "ghế {s!r} ngoài khoảng 0..{n}",
        ),
        "tienlen.set_aside_size": (
            "{n_set_aside} cards, expected {value} (missing {cards})",
            "{n_set_aside} lá, cần {value} lá (thiếu {cards})",
        ),
        "tienlen.shape_pair": ("pair", "đôi"),
        "tienlen.shape_pairs": ("{n} pair sequence", "{n} đôi thông"),
        "tienlen.shape_quad": ("four of a kind", "tứ quý"),
        "tienlen.shape_single": ("single", "lá lẻ"),
        "tienlen.shape_straight": ("straight of {n}", "sảnh {n} lá"),
        "tienlen.shape_triple": ("triple", "sám cô"),
        "tienlen.too_many_played": (
            "seat {s} has played more than {NUM_DEALT} cards",
            "ghế {s} đã đánh nhiều hơn {NUM_DEALT} lá",
        ),
        "tienlen.view_not_in_hand": (
            "{cards} is not in seat {s}'s hand",
            "{cards} không có trên tay ghế {s}",
        ),
        "tienlen.view_own_cards": (
            "{cards} is in seat {seat}'s hand, not seat {s}'s",
            "{cards} ở trên tay ghế {seat}, không phải ghế {s}",
        ),
        "tienlen.view_too_many_played": (
            "more cards played than the view allows",
            "số lá đã đánh nhiều hơn phần nhìn cho phép",
        ),
        "tienlen.wrong_shape": (
            "{text} ({shape}) cannot be played on {top_text} ({top_shape})",
            "{text} ({shape}) không đánh được lên {top_text} ({top_shape})",
        ),
    }
)


def shape_text(shape: int) -> Text:
    """A shape code (:mod:`games.tienlen.rules`) as words of the error texts: đôi, sảnh 5 lá..."""
    from quansu.games.tienlen import rules as R

    if shape == R.SINGLE:
        return Text("tienlen.shape_single")
    if shape == R.PAIR:
        return Text("tienlen.shape_pair")
    if shape == R.TRIPLE:
        return Text("tienlen.shape_triple")
    if shape == R.QUAD:
        return Text("tienlen.shape_quad")
    if shape < R.PAIRSEQ:
        return Text("tienlen.shape_straight", n=shape - R.STRAIGHT)
    return Text("tienlen.shape_pairs", n=shape - R.PAIRSEQ)
