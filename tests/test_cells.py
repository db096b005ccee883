"""Terminal cells: wide characters take two, combining marks none; cutting and folding by cells."""

from __future__ import annotations

from groupctl.cells import cells, cut, fold, pad


def test_cells_count_what_a_terminal_shows():
    assert cells("orders") == 6
    assert cells("注文") == 4
    assert cells("e\u0301") == 1  # e + combining acute
    assert cells("a\u200db") == 2  # a zero-width joiner takes nothing
    assert cells("🚀") == 2


def test_cut_keeps_short_text_and_marks_what_it_shortens():
    assert cut("orders", 6) == "orders"
    assert cut("orders-app", 6) == "order…"
    assert cut("注文注文", 5) == "注文…"  # a wide character never straddles the edge
    assert cells(cut("注文注文", 4)) <= 4
    assert cut("abc", 0) == ""


def test_fold_loses_nothing():
    assert fold("abcdefgh", 3) == ["abc", "def", "gh"]
    assert "".join(fold("注文注文x", 3)) == "注文注文x"
    assert all(cells(p) <= 3 for p in fold("注文注文x", 3))
    assert fold("ab", 5) == ["ab"]


def test_pad_fills_to_cells():
    assert pad("注", 4) == "注  "
    assert pad("orders", 3) == "orders"
