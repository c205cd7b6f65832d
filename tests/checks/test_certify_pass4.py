"""Pass 4: a movement said from one side to the other is the finger's, toward its end side."""
from sftdata.checks.finger import finger_direction


def test_from_to_beats_the_first_side_word():
    assert finger_direction("Drag it left (finger goes right-to-left) for the next card") == "left"
    assert finger_direction("the finger travels from the bottom to the top") == "up"
    assert finger_direction("swipe top→bottom to refresh") == "down"


def test_places_stay_places():
    assert finger_direction("the top right corner icon; swipe up") == "up"
    assert finger_direction("finger right") == "right"
