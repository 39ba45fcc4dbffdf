"""Commitments to deck orders: checkable with the salt, broken by any change."""

from service.domain.cards import parse_card
from service.domain.fairness import commitment, salt_for, verify

ORDER = tuple(range(52))


def test_a_commitment_verifies_with_its_salt_and_order():
    salt = salt_for("secret seed", 3)
    assert verify(commitment(salt, ORDER), salt, ORDER)


def test_another_order_or_salt_or_commitment_does_not_verify():
    salt = salt_for("secret seed", 3)
    committed = commitment(salt, ORDER)
    swapped = (ORDER[1], ORDER[0], *ORDER[2:])
    assert not verify(committed, salt, swapped)
    assert not verify(committed, salt_for("secret seed", 4), ORDER)
    assert not verify(committed.replace(committed[0], "0" if committed[0] != "0" else "1", 1), salt, ORDER)


def test_the_formula_is_public_sha256_of_salt_and_card_names():
    import hashlib

    salt = "00" * 16
    order = (parse_card("10H"), parse_card("QS"))
    expected = hashlib.sha256(b"00000000000000000000000000000000|10H,QS").hexdigest()
    assert commitment(salt, order) == expected


def test_salts_differ_per_shuffle_and_per_seed_and_do_not_show_the_seed():
    salts = {salt_for("a", n) for n in range(1, 50)} | {salt_for("b", n) for n in range(1, 50)}
    assert len(salts) == 98
    assert all(len(salt) == 32 and "a" * 8 not in salt for salt in salts)
