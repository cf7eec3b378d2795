"""Phỏm's own error texts in English and Vietnamese (codes ``phom.*``): the rules layer's
errors of this game carry one of these codes (:mod:`games.errors`, which renders them)."""

from __future__ import annotations

from quansu.games.errors import register

#: code -> (English, Vietnamese), ``str.format`` templates with the same fields.
TEXTS: dict[str, tuple[str, str]] = register(
    {
        "phom.already_played": (
            "seat {s} plays {card}, already played by seat {got}",
            "ghế {s} đánh {card}, lá này ghế {got} đã đánh",
        ),
        "phom.bad_card_id": ("bad card id {c!r}", "mã lá bài sai {c!r}"),
        "phom.bad_move_cards": (
            "bad Phỏm move {text!r}: {error}",
            "nước Phỏm sai {text!r}: {error}",
        ),
        "phom.bad_move_text": (
            "bad Phỏm move {text!r}: expected draw, eat C, lay [melds], send C to "
            "N, discard C or u",
            "nước Phỏm sai {text!r}: cần draw, eat C, lay [phỏm], send C to N, discard C hoặc u",
        ),
        "phom.bad_seat": ("bad seat {s!r}", "ghế sai {s!r}"),
        "phom.cannot_hold_in_time": (
            "seat {o} cannot hold {card} in time (too many cards played from hand)",
            "ghế {o} không thể có {card} kịp lúc (đã đánh quá nhiều lá trên tay)",
        ),
        "phom.card_already_seat": (
            "card {card} is already in seat {seat}'s hand or draws",
            "lá {card} đã ở trên tay hoặc trong bài bốc của ghế {seat}",
        ),
        "phom.card_dealt_twice": (
            "card {card} dealt twice ({seen} and {where})",
            "lá {card} bị chia hai lần ({seen} và {where})",
        ),
        "phom.card_named_twice": (
            "bad Phỏm move {text!r}: {card_text} named twice",
            "nước Phỏm sai {text!r}: lá {card_text} được ghi hai lần",
        ),
        "phom.card_not_in_hand": (
            "{text!r}: {card_text} is not in seat {p}'s hand",
            "{text!r}: lá {card_text} không có trên tay ghế {p}",
        ),
        "phom.card_twice_in_hand": (
            "card {card} dealt twice (deal.hands[{seat}])",
            "lá {card} bị chia hai lần (deal.hands[{seat}])",
        ),
        "phom.cards_not_in_hand": (
            "{text!r}: {mask_text} not in seat {p}'s hand",
            "{text!r}: {mask_text} không có trên tay ghế {p}",
        ),
        "phom.count_size": (
            "{n_hand} cards, Phỏm deals {counts} to {who}",
            "{n_hand} lá, Phỏm chia {counts} lá cho {who}",
        ),
        "phom.counts_entries": (
            "{n_counts} entries for {n} players",
            "{n_counts} mục cho {n} người chơi",
        ),
        "phom.counts_size": (
            "{counts} cards, Phỏm deals {want} to {who}",
            "{counts} lá, Phỏm chia {want} lá cho {who}",
        ),
        "phom.discard_eaten": (
            "{text!r}: {card_text} is an eaten card",
            "{text!r}: {card_text} là lá đã ăn",
        ),
        "phom.discard_tied": (
            "{text!r}: {card_text} is tied to an eaten card's phỏm",
            "{text!r}: {card_text} thuộc phỏm của một lá đã ăn",
        ),
        "phom.discards_eaten": (
            "seat {s} discards its eaten card {card}",
            "ghế {s} đánh lá đã ăn {card}",
        ),
        "phom.drawn_count": (
            "{n_drawn} cards, but seat {seat} drew {n_my_positions} times in the moves",
            "{n_drawn} lá, nhưng ghế {seat} bốc {n_my_positions} lần trong các nước",
        ),
        "phom.eat_no_meld": (
            "{text!r}: {card_text} does not make a phỏm with free cards of the hand",
            "{text!r}: {card_text} không tạo được phỏm với các lá tự do trên tay",
        ),
        "phom.eat_only_last": (
            "{text!r}: only the previous seat's last discard can be eaten ({cur} now)",
            "{text!r}: chỉ được ăn lá vừa đánh của ghế trước ({cur} lúc này)",
        ),
        "phom.eat_only_last_discard": (
            "{text!r}: only the previous seat's last discard can be eaten ({now} now)",
            "{text!r}: chỉ được ăn lá vừa đánh của ghế trước ({now} lúc này)",
        ),
        "phom.eat_payments_negative": (
            "option 'eat_payments': must not be negative, got {o!r}",
            "tùy chọn 'eat_payments': không được âm, nhận {o!r}",
        ),
        "phom.empty_meld": (
            "bad Phỏm move {text!r}: empty meld between '/'",
            "nước Phỏm sai {text!r}: phỏm rỗng giữa hai dấu '/'",
        ),
        "phom.expected_deal": ("expected a Deal, got {type}", "cần một Deal, nhận {type}"),
        "phom.expected_list": (
            "expected a list, got {value!r}",
            "cần một danh sách, nhận {value!r}",
        ),
        "phom.expected_seat_move": (
            "expected (seat, move), got {item!r}",
            "cần (ghế, nước đi), nhận {item!r}",
        ),
        "phom.first_not_a_seat": (
            "{first!r} is not a seat 0..{n}",
            "{first!r} không phải ghế 0..{n}",
        ),
        "phom.game_over": ("the game is over", "ván đã hết"),
        "phom.hand_size": (
            "{n_hand} cards, Phỏm deals {want} to {who}",
            "{n_hand} lá, Phỏm chia {want} lá cho {who}",
        ),
        "phom.hands_for_players": (
            "{n_hands} hands for {n} players",
            "{n_hands} tay bài cho {n} người chơi",
        ),
        "phom.keep_last_card": (
            "{text!r}: the last card must be kept for the discard",
            "{text!r}: phải giữ lá cuối để đánh",
        ),
        "phom.keep_one_to_discard": (
            "{text!r}: seat {s} holds {cnt} cards and must keep one to discard",
            "{text!r}: ghế {s} có {cnt} lá và phải giữ một lá để đánh",
        ),
        "phom.lay_eaten": (
            "{text!r}: the eaten card(s) {mask_text} must be laid",
            "{text!r}: phải hạ (các) lá đã ăn {mask_text}",
        ),
        "phom.lay_eaten_rule": (
            "{text!r}: each eaten card must lie in its own phỏm and one card must be left",
            "{text!r}: mỗi lá đã ăn phải nằm trong một phỏm riêng và phải còn lại một lá",
        ),
        "phom.meld_id_not_number": (
            "bad Phỏm move {text!r}: meld id {parts!r} is not a number",
            "nước Phỏm sai {text!r}: số phỏm {parts!r} không phải một số",
        ),
        "phom.meld_id_range": (
            "bad Phỏm move {text!r}: meld id {i} out of range",
            "nước Phỏm sai {text!r}: số phỏm {i} ngoài khoảng",
        ),
        "phom.melds_share": (
            "bad Phỏm move {text!r}: melds share a card",
            "nước Phỏm sai {text!r}: các phỏm dùng chung một lá",
        ),
        "phom.move_after_end": (
            "{text!r} by seat {s}, but the game is over",
            "{text!r} của ghế {s}, nhưng ván đã hết",
        ),
        "phom.move_empty": ("bad Phỏm move {text!r}: empty", "nước Phỏm sai {text!r}: rỗng"),
        "phom.move_not_text": (
            "bad Phỏm move {text!r}: expected text",
            "nước Phỏm sai {text!r}: cần chữ",
        ),
        "phom.moves_not_list": (
            "expected a list of (seat, move), got {moves!r}",
            "cần danh sách (ghế, nước đi), nhận {moves!r}",
        ),
        "phom.no_card": ("no card", "không có lá nào"),
        "phom.no_done": (
            "{move} is not a Phỏm move: after sending, the discard ends the turn (Phỏm "
            "has no 'done'; play 'discard C' to stop sending)",
            "{move} không phải nước Phỏm: sau khi gửi, đánh một lá là hết lượt (Phỏm "
            "không có 'done'; đi 'discard C' để thôi gửi)",
        ),
        "phom.no_extra": (
            "Phỏm deals carry no extra data (got {got}); the previous Ù winner is the "
            "option 'previous_u_winner'",
            "chia bài Phỏm không có dữ liệu thêm (nhận {got}); người ù ván trước là "
            "tùy chọn 'previous_u_winner'",
        ),
        "phom.no_such_meld": (
            "{text!r}: there is no meld {i} (melds 0..{n_table})",
            "{text!r}: không có phỏm {i} (phỏm 0..{n_table})",
        ),
        "phom.no_such_meld_laid": (
            "{text!r}: there is no meld {j} ({n_owners} laid)",
            "{text!r}: không có phỏm {j} (đã hạ {n_owners})",
        ),
        "phom.no_trump": ("Phỏm has no trump card", "Phỏm không có lá chủ"),
        "phom.no_u": ("{text!r}: no Ù is possible now", "{text!r}: lúc này không ù được"),
        "phom.not_a_meld": (
            "bad Phỏm move {text!r}: {meld_text} is not a phỏm",
            "nước Phỏm sai {text!r}: {meld_text} không phải phỏm",
        ),
        "phom.not_a_move": ("not a Phỏm move: {move!r}", "không phải nước đi Phỏm: {move!r}"),
        "phom.not_a_move_value": ("not a Phỏm move: {mv!r}", "không phải nước đi Phỏm: {mv!r}"),
        "phom.not_legal_now": ("{text!r} is not legal now", "{text!r} không hợp lệ lúc này"),
        "phom.option_negative": (
            "option {k!r}: must not be negative, got {v!r}",
            "tùy chọn {k!r}: không được âm, nhận {v!r}",
        ),
        "phom.out_of_turn": (
            "seat {s} moved but seat {cur} is to act",
            "ghế {s} đi nhưng đang đến lượt ghế {cur}",
        ),
        "phom.phase_discard": ("discard phase", "giai đoạn đánh bài"),
        "phom.phase_lay": ("lay phase", "giai đoạn hạ phỏm"),
        "phom.phase_over": ("over phase", "ván đã hết"),
        "phom.phase_send": ("send phase", "giai đoạn gửi"),
        "phom.phase_take": ("take phase", "giai đoạn bốc/ăn"),
        "phom.plays_others_card": (
            "seat {s} plays {card}, which is seat {seat}'s card",
            "ghế {s} đánh {card}, là lá của ghế {seat}",
        ),
        "phom.previous_u_winner_seat": (
            "option 'previous_u_winner': {prev!r} is not a seat 0..{n} (or -1 for none)",
            "tùy chọn 'previous_u_winner': {prev!r} không phải ghế 0..{n} (hoặc -1 nếu không có)",
        ),
        "phom.seat_not_a_seat": ("{seat!r} is not a seat 0..{n}", "{seat!r} không phải ghế 0..{n}"),
        "phom.send_not_fit": (
            "{text!r}: {card_text} does not extend meld {i}",
            "{text!r}: {card_text} không gửi được vào phỏm {i}",
        ),
        "phom.send_own_meld": (
            "{text!r}: meld {j} is seat {s}'s own; only other seats' melds take "
            "cards in a lay-down turn",
            "{text!r}: phỏm {j} là của chính ghế {s}; trong lượt hạ chỉ gửi vào phỏm của ghế khác",
        ),
        "phom.set_aside_size": (
            "{n_set_aside} cards, expected {value} with {n} players",
            "{n_set_aside} lá, cần {value} lá với {n} người chơi",
        ),
        "phom.stock_empty": ("seat {s} draws from an empty stock", "ghế {s} bốc khi nọc đã hết"),
        "phom.stock_size": (
            "{n_stock} cards, Phỏm's stock holds {value} with {n} players",
            "{n_stock} lá, nọc Phỏm có {value} lá với {n} người chơi",
        ),
        "phom.u_automatic": (
            "'u': Ù is declared automatically (auto_declare_u)",
            "'u': ù được báo tự động (auto_declare_u)",
        ),
        "phom.view_no_meld": (
            "no phỏm can be found for an eaten card of the view",
            "không tìm được phỏm cho một lá đã ăn của phần nhìn",
        ),
        "phom.view_too_many_cards": (
            "the view needs more cards than the deck holds",
            "phần nhìn cần nhiều lá hơn cả bộ bài",
        ),
        "phom.who_first": ("the first player", "người đi đầu"),
        "phom.who_seat": ("this seat", "ghế này"),
        "phom.wrong_phase": (
            "{text!r}: seat {p} must {join} now ({ph})",
            "{text!r}: lúc này ghế {p} phải {join} ({ph})",
        ),
        "phom.wrong_phase_view": (
            "{text!r}: seat {s} must {expected} now ({phase})",
            "{text!r}: lúc này ghế {s} phải {expected} ({phase})",
        ),
    }
)
