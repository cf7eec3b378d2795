"""Tấn's own error texts in English and Vietnamese (codes ``tan.*``): the rules layer's
errors of this game carry one of these codes (:mod:`games.errors`, which renders them)."""

from __future__ import annotations

from quansu.games.errors import register

#: code -> (English, Vietnamese), ``str.format`` templates with the same fields.
TEXTS: dict[str, tuple[str, str]] = register(
    {
        "tan.bad_card_id": (
            "bad card id {card!r} (expected 0..51)",
            "mã lá bài sai {card!r} (cần 0..51)",
        ),
        "tan.bad_move_card": ("bad Tấn move {whole!r}: {error}", "nước Tấn sai {whole!r}: {error}"),
        "tan.bad_move_text": (
            "bad Tấn move {text!r}: expected 'attack 7S', 'defend 7S with 9S', "
            "'throw 7H', 'swap 2H', 'take' or 'done'",
            "nước Tấn sai {text!r}: cần 'attack 7S', 'defend 7S with 9S', 'throw "
            "7H', 'swap 2H', 'take' hoặc 'done'",
        ),
        "tan.bot_game_over": (
            "{bot}: the game is over, there is no move to choose",
            "{bot}: ván đã hết, không còn nước nào để chọn",
        ),
        "tan.cannot_draw_known": (
            "{card} cannot be drawn here; seat {seat} knows it is elsewhere",
            "lá {card} không thể bốc ở đây; ghế {seat} biết nó ở chỗ khác",
        ),
        "tan.card_dealt_twice": (
            "card {card} dealt twice ({seen} and {where})",
            "lá {card} bị chia hai lần ({seen} và {where})",
        ),
        "tan.card_named_twice": ("card {card} named twice", "lá {card} được ghi hai lần"),
        "tan.card_not_in_hand": (
            "{text}: {card} is not in seat {seat}'s hand",
            "{text}: lá {card} không có trên tay ghế {seat}",
        ),
        "tan.count_size": (
            "{k!r} cards, Tấn deals {HAND_SIZE}",
            "{k!r} lá, Tấn chia {HAND_SIZE} lá",
        ),
        "tan.counts_entries": (
            "{n_counts} entries for {n} players",
            "{n_counts} mục cho {n} người chơi",
        ),
        "tan.does_not_beat": (
            "{text}: {card} does not beat {card2} (trump {trump})",
            "{text}: {card} không chặn được {card2} (chủ {trump})",
        ),
        "tan.drawn_count": (
            "{n_drawn} cards given, but the moves make seat {seat} draw {k}",
            "có {n_drawn} lá, nhưng các nước làm ghế {seat} bốc {k} lá",
        ),
        "tan.drawn_in_hand": (
            "{card} is also in seat {seat}'s hand",
            "lá {card} cũng có trên tay ghế {seat}",
        ),
        "tan.drawn_too_few": (
            "{n_drawn} cards given, but the moves make seat {seat} draw more",
            "có {n_drawn} lá, nhưng các nước làm ghế {seat} bốc nhiều hơn",
        ),
        "tan.drew_face_up": (
            "seat {seat} drew the face-up card {card} here, not {card2}",
            "ở đây ghế {seat} bốc lá chủ lật ngửa {card}, không phải {card2}",
        ),
        "tan.expected_deal": ("expected a Deal, got {type}", "cần một Deal, nhận {type}"),
        "tan.expected_seat_move": (
            "expected a (seat, move) pair, got {entry!r}",
            "cần cặp (ghế, nước đi), nhận {entry!r}",
        ),
        "tan.face_up_drawn": ("the face-up card has been drawn", "lá lật ngửa đã bị bốc"),
        "tan.first_not_a_seat": (
            "{first!r} is not a seat of {n} players",
            "{first!r} không phải ghế của {n} người chơi",
        ),
        "tan.game_over": ("the game is already over", "ván đã hết rồi"),
        "tan.game_over_move": (
            "the game is over; {move_text} is not legal",
            "ván đã hết; {move_text} không hợp lệ",
        ),
        "tan.hand_size": (
            "{n_hand} cards, Tấn deals {HAND_SIZE}",
            "{n_hand} lá, Tấn chia {HAND_SIZE} lá",
        ),
        "tan.hands_for_players": (
            "{n_hands} hands for {n} players",
            "{n_hands} tay bài cho {n} người chơi",
        ),
        "tan.loss_amount_positive": (
            "option 'loss_amount': expected a positive number, got {amount!r}",
            "tùy chọn 'loss_amount': cần một số dương, nhận {amount!r}",
        ),
        "tan.move_empty": ("bad Tấn move {text!r}: empty", "nước Tấn sai {text!r}: rỗng"),
        "tan.move_not_text": (
            "bad Tấn move {text!r}: expected text such as 'attack 7S'",
            "nước Tấn sai {text!r}: cần chữ như 'attack 7S'",
        ),
        "tan.must_attack": (
            "{text}: seat {seat} must open the bout with 'attack <card>'",
            "{text}: ghế {seat} phải mở lượt bằng 'attack <lá>'",
        ),
        "tan.must_defend_or_take": (
            "{text}: seat {seat} must defend {card} or take",
            "{text}: ghế {seat} phải chặn {card} hoặc ôm bài",
        ),
        "tan.no_set_aside": (
            "{n_set_aside} cards; Tấn sets none aside",
            "{n_set_aside} lá; Tấn không để riêng lá nào",
        ),
        "tan.not_a_move": ("not a Tấn move: {move!r}", "không phải nước đi Tấn: {move!r}"),
        "tan.not_a_move_code": (
            "not a Tấn move code: {move!r}",
            "không phải mã nước đi Tấn: {move!r}",
        ),
        "tan.not_a_move_text": ("{text} is not a Tấn move", "{text} không phải nước đi Tấn"),
        "tan.not_a_move_value": (
            "{move!r} is not a Tấn move (moves are ints; see parse_move)",
            "{move!r} không phải nước đi Tấn (nước đi là số nguyên; xem parse_move)",
        ),
        "tan.not_legal_now": ("{text} is not legal now", "{text} không hợp lệ lúc này"),
        "tan.option_true_unsupported": (
            "option {name!r}: true is not supported; the Tấn rules name "
            "this house rule without defining it, so only false is "
            "accepted",
            "tùy chọn {name!r}: không hỗ trợ true; luật Tấn nêu tên luật "
            "riêng này mà không định nghĩa, nên chỉ nhận false",
        ),
        "tan.out_of_turn_swap": (
            "{move_text} by seat {seat}, but {note}",
            "{move_text} của ghế {seat}, nhưng {note}",
        ),
        "tan.rank_not_on_table": (
            "{text}: the rank of {card} is not on the table",
            "{text}: số của lá {card} không có trên bàn",
        ),
        "tan.seat_not_a_seat": (
            "{seat!r} is not a seat of {n} players",
            "{seat!r} không phải ghế của {n} người chơi",
        ),
        "tan.seat_not_of_players": (
            "seat {seat!r} is not a seat of {n} players",
            "ghế {seat!r} không phải ghế của {n} người chơi",
        ),
        "tan.stock_size": (
            "{n_stock} cards; with {n} players the stock above the face-up trump holds {stock_len}",
            "{n_stock} lá; với {n} người chơi nọc phía trên lá chủ lật ngửa có {stock_len} lá",
        ),
        "tan.swap_disabled": ("trump_swap is 'none'", "trump_swap là 'none' (không cho đổi chủ)"),
        "tan.swap_lower_trump": (
            "only a trump lower than the face-up {card} may be given",
            "chỉ được đổi lá chủ nhỏ hơn lá lật ngửa {card}",
        ),
        "tan.swap_not_now": (
            "{text}: seat {seat} may not swap for the face-up card now ({why})",
            "{text}: lúc này ghế {seat} không được đổi chủ ({why})",
        ),
        "tan.swap_once": ("each seat swaps at most once", "mỗi ghế chỉ được đổi chủ một lần"),
        "tan.swap_round_answer": (
            "seat {seat} must answer the swap round (swap C or done) before the first attack",
            "ghế {seat} phải trả lời vòng đổi chủ (swap C hoặc done) trước nước đánh đầu tiên",
        ),
        "tan.swap_round_first": ("{text}: {note}", "{text}: {note}"),
        "tan.swap_round_only_done": (
            "seat {seat} must answer the swap round (swap C or done) before "
            "the first attack; its only answer is 'done'",
            "ghế {seat} phải trả lời vòng đổi chủ (swap C hoặc done) trước "
            "nước đánh đầu tiên; nó chỉ có thể trả lời 'done'",
        ),
        "tan.swap_round_over": (
            "swaps belong to the swap round before the first attack",
            "chỉ đổi chủ trong vòng đổi chủ trước nước đánh đầu tiên",
        ),
        "tan.swap_two_only": (
            "under trump_swap 'two_only' only the 2 of trumps ({two}) may be swapped",
            "với trump_swap 'two_only' chỉ được đổi lá 2 chủ ({two})",
        ),
        "tan.throw_or_done": (
            "{text}: seat {seat} may throw in a card of a rank on the table, or 'done'",
            "{text}: ghế {seat} chỉ được đánh thêm lá cùng số với bài trên bàn, hoặc 'done'",
        ),
        "tan.trump_missing": (
            "missing; Tấn needs the face-up trump card",
            "thiếu; Tấn cần lá chủ lật ngửa",
        ),
        "tan.view_trump_missing": (
            "missing; a Tấn view must give the face-up trump card",
            "thiếu; phần nhìn Tấn phải cho lá chủ lật ngửa",
        ),
        "tan.wrong_card_to_beat": (
            "{text}: the card to beat is {card}",
            "{text}: lá phải chặn là {card}",
        ),
    }
)
