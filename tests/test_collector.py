"""The collector held back while autoviz builds: back on after, nothing frozen left behind."""

import gc

import pytest

from autoviz.collector import collector_paused


def _made_in_a_paused_block():
    with collector_paused():
        assert not gc.isenabled()
        kept = [[i] for i in range(20_000)]
    return kept


def test_objects_made_while_paused_go_to_the_oldest_generation_and_stay_collectable():
    kept = _made_in_a_paused_block()
    assert gc.isenabled() and gc.get_freeze_count() == 0
    assert gc.get_count()[0] < 1_000  # not 20,000 young objects to scan first
    assert all(gc.is_tracked(item) for item in kept[:10])
    cycle = []
    cycle.append(cycle)
    with collector_paused():
        pass
    del cycle
    assert gc.collect() >= 1  # what the block promoted is still collected


def test_objects_someone_else_froze_stay_frozen():
    gc.freeze()
    frozen = gc.get_freeze_count()
    try:
        _made_in_a_paused_block()
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_left_as_it_was_even_after_an_error(enabled):
    (gc.enable if enabled else gc.disable)()
    try:
        with pytest.raises(KeyError), collector_paused():
            raise KeyError("inside")
        assert gc.isenabled() is enabled
    finally:
        gc.enable()
