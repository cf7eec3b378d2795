"""Sâm lốc's own error texts in English and Vietnamese (codes ``samloc.*``): the rules layer's
errors of this game carry one of these codes (:mod:`games.errors`, which renders them)."""

from __future__ import annotations

from quansu.games.errors import register

#: code -> (English, Vietnamese), ``str.format`` templates with the same fields.
TEXTS: dict[str, tuple[str, str]] = register(
    {
        "samloc.already_played": ("{fmt} already played", "{fmt} đã được đánh"),
        "samloc.answers_out_of_turn": (
            "seat {seat} answers báo sâm out of turn: every seat answers "
            "once, in seat order from seat 0, so seat {cur} answers next",
            "ghế {seat} trả lời báo sâm sai lượt: mỗi ghế trả lời một "
            "lần, theo thứ tự từ ghế 0, nên ghế {cur} trả lời tiếp",
        ),
        "samloc.answers_over_beat": (
            "báo sâm is over (every seat has answered): seat {s} must beat the top or pass",
            "báo sâm đã xong (mọi ghế đã trả lời): ghế {s} phải chặn bài trên bàn hoặc bỏ lượt",
        ),
        "samloc.answers_over_lead": (
            "báo sâm is over (every seat has answered): seat {s} must lead",
            "báo sâm đã xong (mọi ghế đã trả lời): ghế {s} phải đi trước",
        ),
        "samloc.bad_card_id": (
            "bad card id {c!r} (expected 0..51)",
            "mã lá bài sai {c!r} (cần 0..51)",
        ),
        "samloc.bad_move_cards": ("bad move {text!r}: {error}", "nước sai {text!r}: {error}"),
        "samloc.bao_mot": (
            "báo một: seat {next_active} has one card, so seat {s} may only play a "
            "single of his highest rank ({RANKS})",
            "báo một: ghế {next_active} còn một lá, nên ghế {s} chỉ được đánh lá lẻ "
            "lớn nhất của mình ({RANKS})",
        ),
        "samloc.card_dealt_twice": ("card {card} dealt twice", "lá {card} bị chia hai lần"),
        "samloc.does_not_beat": ("{fmt} does not beat {fmt2}", "{fmt} không chặn được {fmt2}"),
        "samloc.double_quad_answer": (
            "a double quad may only answer a pair of 2s or a lower double quad",
            "hai tứ quý chỉ được chặt đôi heo hoặc hai tứ quý nhỏ hơn",
        ),
        "samloc.expected_card_ids": ("expected a list of card ids", "cần danh sách mã lá bài"),
        "samloc.expected_deal": ("expected a Deal, got {type}", "cần một Deal, nhận {type}"),
        "samloc.expected_seat_move": (
            "expected a (seat, move) pair, got {mv!r}",
            "cần cặp (ghế, nước đi), nhận {mv!r}",
        ),
        "samloc.first_not_a_seat": (
            "{first!r} is not a seat 0..{n}",
            "{first!r} không phải ghế 0..{n}",
        ),
        "samloc.game_over": ("the game is over", "ván đã hết"),
        "samloc.hand_size": (
            "{n_hand} cards, Sâm deals {HAND_SIZE}",
            "{n_hand} lá, Sâm chia {HAND_SIZE} lá",
        ),
        "samloc.hands_for_players": (
            "{got} hands for {n} players",
            "{got} tay bài cho {n} người chơi",
        ),
        "samloc.lead_cannot_pass": (
            "seat {s} leads a new round and cannot pass",
            "ghế {s} đi đầu vòng mới nên không được bỏ lượt",
        ),
        "samloc.lowest_card_held": (
            "seat {first}, but the lowest card {card} is held by seat "
            "{holder} (first_game_leader = lowest_card)",
            "ghế {first}, nhưng lá nhỏ nhất {card} ở trên tay ghế {holder} "
            "(first_game_leader = lowest_card)",
        ),
        "samloc.lowest_card_leader": (
            "seat {first} must hold the lowest card of a first game, and "
            "no deal consistent with the view gives it to him",
            "ghế {first} phải có lá nhỏ nhất của ván đầu, và không cách "
            "chia nào khớp với phần nhìn cho ghế đó lá ấy",
        ),
        "samloc.move_after_end": (
            "seat {s} moved after the end of the game",
            "ghế {s} đi sau khi ván đã hết",
        ),
        "samloc.move_empty": (
            "empty move text (use pass, declare, decline or cards like '7S 7H')",
            "nước đi rỗng (dùng pass, declare, decline hoặc các lá như '7S 7H')",
        ),
        "samloc.move_not_combination": (
            "bad move {text!r}: not a Sâm combination",
            "nước sai {text!r}: không phải bộ bài Sâm",
        ),
        "samloc.move_not_text": (
            "move text must be a string, got {text!r}",
            "chữ của nước đi phải là chuỗi, nhận {text!r}",
        ),
        "samloc.must_answer": (
            "seat {s} must answer báo sâm (declare or decline) before play starts",
            "ghế {s} phải trả lời báo sâm (declare hoặc decline) trước khi bắt đầu đánh",
        ),
        "samloc.must_answer_first_not_move": (
            "seat {cur} must answer báo sâm (declare or decline) "
            "before play starts, not seat {seat}'s {move} (every "
            "seat answers once, in seat order from seat 0, also "
            "after someone declared)",
            "ghế {cur} phải trả lời báo sâm (declare hoặc decline) "
            "trước khi bắt đầu đánh, không phải nước {move} của "
            "ghế {seat} (mỗi ghế trả lời một lần, theo thứ tự từ "
            "ghế 0, kể cả khi đã có người báo)",
        ),
        "samloc.must_answer_first_not_seat": (
            "seat {cur} must answer báo sâm (declare or decline) "
            "before play starts, not seat {seat} (every seat "
            "answers once, in seat order from seat 0, also after "
            "someone declared)",
            "ghế {cur} phải trả lời báo sâm (declare hoặc decline) "
            "trước khi bắt đầu đánh, không phải ghế {seat} (mỗi "
            "ghế trả lời một lần, theo thứ tự từ ghế 0, kể cả khi "
            "đã có người báo)",
        ),
        "samloc.no_consistent_deal": (
            "no deal is consistent with the view",
            "không có cách chia bài nào khớp với phần nhìn",
        ),
        "samloc.no_extra": (
            "Sâm deals carry no extra data (the previous game's winner is the option "
            "previous_winner)",
            "chia bài Sâm không có dữ liệu thêm (người thắng ván trước là tùy chọn "
            "previous_winner)",
        ),
        "samloc.no_stock": ("Sâm has no stock", "Sâm không có nọc"),
        "samloc.no_stock_to_draw": ("Sâm has no stock to draw from", "Sâm không có nọc để bốc"),
        "samloc.no_trump": ("Sâm has no trump card", "Sâm không có lá chủ"),
        "samloc.not_a_move": ("not a Sâm move: {move!r}", "không phải nước đi Sâm: {move!r}"),
        "samloc.not_a_move_value": ("{m!r} is not a Sâm move", "{m!r} không phải nước đi Sâm"),
        "samloc.not_combination": ("{fmt} is not a Sâm combination", "{fmt} không phải bộ bài Sâm"),
        "samloc.not_in_hand": (
            "{fmt} is not in seat {s}'s hand",
            "{fmt} không có trên tay ghế {s}",
        ),
        "samloc.option_negative": (
            "option {name!r}: must be >= 0, got {value!r}",
            "tùy chọn {name!r}: phải >= 0, nhận {value!r}",
        ),
        "samloc.plays_others_cards": (
            "seat {s} plays {fmt}, held by seat {seat}",
            "ghế {s} đánh {fmt}, bài này trên tay ghế {seat}",
        ),
        "samloc.previous_winner_leads": (
            "seat {first}, but the previous winner (seat {prev}, option previous_winner) leads",
            "ghế {first}, nhưng người thắng ván trước (ghế {prev}, tùy "
            "chọn previous_winner) đi trước",
        ),
        "samloc.previous_winner_seat": (
            "option 'previous_winner': {pw} is not -1 or a seat 0..{num_players}",
            "tùy chọn 'previous_winner': {pw} không phải -1 hay ghế 0..{num_players}",
        ),
        "samloc.seat_not_a_seat": ("{s!r} is not a seat 0..{n}", "{s!r} không phải ghế 0..{n}"),
        "samloc.set_aside_size": (
            "{n_set_aside} cards, expected the {value} cards not dealt",
            "{n_set_aside} lá, cần {value} lá không chia",
        ),
        "samloc.too_many_played": (
            "seat {s} plays more than {HAND_SIZE} cards",
            "ghế {s} đánh nhiều hơn {HAND_SIZE} lá",
        ),
    }
)
