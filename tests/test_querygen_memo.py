"""Drafting's remembered reads: served only from an untouched fork, always as a private copy."""

from __future__ import annotations

from querygen.plan.memo import PristineReads
from querygen.plan.probe import Sandbox

BALANCE = ("banking_get_balance", {"account": "ACC-000001"})


def test_a_repeated_read_of_an_untouched_fork_is_remembered_and_equal(make_env):
    env = make_env("banking")
    reads = PristineReads(env)
    ep = env.open()
    first = reads.call(ep, *BALANCE)
    again = reads.call(ep, *BALANCE)
    assert first.ok and reads.hits == 1
    assert again.value == first.value == env.call(env.open(), *BALANCE).value
    again.value["mutated"] = True  # a caller changing its result changes no one else's
    assert "mutated" not in reads.call(ep, *BALANCE).value


def test_after_a_write_the_read_runs_and_sees_it_and_a_rollback_makes_it_pristine_again(make_env):
    env = make_env("banking")
    reads = PristineReads(env)
    sandbox = Sandbox(env.open())
    with sandbox.trial(["banking"]) as ep:
        before = reads.call(ep, *BALANCE).value
        assert reads.call(ep, "banking_deposit", {"account": "ACC-000001", "amount": 25.0}).ok
        after = reads.call(ep, *BALANCE)
        assert reads.hits == 0 and after.value != before  # not the remembered balance
    with sandbox.trial(["banking"]) as ep:  # rolled back: the snapshot again, so remembered
        assert reads.call(ep, *BALANCE).value == before and reads.hits == 1


def test_writes_and_failed_reads_pass_through_with_their_errors(make_env):
    env = make_env("banking")
    reads = PristineReads(env)
    ep = env.open()
    bad = ("banking_get_balance", {"account": "ACC-999999"})
    assert reads.call(ep, *bad).error == env.call(env.open(), *bad).error
    assert not reads.call(ep, *bad).ok and reads.hits == 1  # a refusal of the snapshot is one too
    write = reads.call(ep, "banking_deposit", {"account": "ACC-000001", "amount": 5.0})
    assert write.ok and reads.call(ep, "banking_deposit", {"account": "ACC-000001", "amount": 5.0}).ok
    assert reads.hits == 1  # the writes both ran
