"""How much earlier a Mau claim counts (maumau.server.latency): the estimates from the
pongs, each rule of the credit, and, as properties, the bounds a lying client cannot
get past."""

from __future__ import annotations

import random
import statistics

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from maumau.server.latency import (
    KERNEL_FACTOR,
    MAX_ALLOWANCE,
    MIN_ALLOWANCE,
    Kernel,
    Latency,
    credit,
)

ORIGIN = 5_000.0  # the client's clock reads this much more than the server's (seconds)


def link(down: list[float], up: list[float], clocked: bool = True, start: float = 100.0) -> Latency:
    """A connection whose i-th ping took ``down[i]`` to the client and its pong
    ``up[i]`` back, one ping a second from ``start``; clocked pongs carry the client's
    clock (the server's plus ORIGIN)."""
    latency = Latency()
    for i, (d, u) in enumerate(zip(down, up, strict=True)):
        sent = start + i
        answered = sent + d
        latency.add(sent, answered + u, (answered + ORIGIN) * 1000 if clocked else None)
    return latency


def steady(one_way: float, n: int = 10, clocked: bool = True) -> Latency:
    return link([one_way] * n, [one_way] * n, clocked)


def claim(
    latency: Latency,
    down: float,
    up: float,
    reaction: float,
    cheat: float = 0.0,
    cap_ms: int = 1000,
    report: bool = True,
    opened: float = 200.0,
) -> tuple[float, str | None]:
    """A window opens at ``opened``; its frame takes ``down`` to the client, which
    claims ``reaction`` later, its claim taking ``up``. A cheater reports a reaction
    and a clock ``cheat`` seconds smaller. Returns (shift, basis)."""
    sent = opened + down + reaction
    arrived = sent + up
    got = credit(
        latency,
        True,
        cap_ms,
        opened,
        arrived,
        (reaction - cheat) * 1000 if report else None,
        (sent - cheat + ORIGIN) * 1000 if report else None,
    )
    return got.shift, got.basis


# --- the estimates ----------------------------------------------------------------------


def test_the_usual_round_trip_is_the_median_so_one_spike_barely_moves_it() -> None:
    latency = steady(0.040)
    assert latency.rtt == pytest.approx(0.080)
    latency.add(200.0, 200.5)  # one pong half a second late
    assert latency.rtt == pytest.approx(0.080)
    assert latency.min_rtt == pytest.approx(0.080)
    ewma = 0.080 * 0.8 + 0.5 * 0.2  # what the former 20 % average would have said
    assert ewma > 0.15


def test_the_clock_offset_comes_from_the_fastest_clocked_pong() -> None:
    # The fastest ping (i = 2) was slow down and fast up in absolute terms but evenly
    # split; the others are lopsided and slower.
    latency = link([0.050, 0.030, 0.010, 0.090], [0.010, 0.060, 0.010, 0.020])
    assert latency.offset() == pytest.approx(ORIGIN)
    lopsided = link([0.002, 0.030, 0.030, 0.030], [0.018, 0.030, 0.030, 0.030])
    # Its fastest round trip split 2 ms / 18 ms: the offset is off by half the difference.
    assert lopsided.offset() == pytest.approx(ORIGIN - 0.008)


def test_no_offset_before_four_clocked_pongs() -> None:
    assert steady(0.040, n=3).offset() is None
    assert steady(0.040, n=10, clocked=False).offset() is None
    assert steady(0.040, n=4).offset() == pytest.approx(ORIGIN)


def test_the_allowance_follows_the_links_jitter_within_its_bounds() -> None:
    assert steady(0.040).allowance(ORIGIN) == MIN_ALLOWANCE
    rng = random.Random(1)
    jittery = link(
        [0.08 + rng.uniform(0, 0.02) for _ in range(32)],
        [0.08 + rng.uniform(0, 0.02) for _ in range(32)],
    )
    allowance = jittery.allowance(jittery.offset())
    assert 0.02 < allowance < 0.035  # one and a half times the largest excess (< 20 ms)
    wild = link([0.08] * 32, [0.08 + 0.3 * (i % 2) for i in range(32)])
    assert wild.allowance(wild.offset()) == MAX_ALLOWANCE


# --- the rules --------------------------------------------------------------------------


def test_lying_pong_clocks_alone_do_not_widen_the_allowance() -> None:
    """On a steady link, a client whose pongs claim (now and then) to have left 80 ms
    earlier than they did: its round trips are steady, so its allowance stays at the
    least, and a claim under-reported by 60 ms is refused."""
    latency = Latency()
    for i in range(32):
        sent = 100.0 + i
        answered = sent + 0.040
        lie = 0.080 if i % 8 == 0 else 0.0
        latency.add(sent, answered + 0.040, (answered - lie + ORIGIN) * 1000)
    assert latency.allowance(latency.offset()) == MIN_ALLOWANCE
    assert claim(latency, 0.040, 0.040, 0.3, cheat=0.060)[1] == "refused"


def test_off_or_unmeasured_credits_nothing() -> None:
    assert credit(steady(0.040), False, 100, 0.0, 1.0, 500.0, 1.0).shift == 0.0
    assert credit(Latency(), True, 100, 0.0, 1.0, 500.0, 1.0).basis is None


def test_without_a_report_the_usual_delay_counts() -> None:
    latency = steady(0.040)
    assert claim(latency, 0.06, 0.06, 0.3, report=False) == (pytest.approx(0.040), "usual")
    got = credit(latency, True, 100, None, 1.0, 500.0, 1.0)  # the window is not known
    assert (got.shift, got.basis) == (pytest.approx(0.040), "usual")


def test_a_claim_is_credited_with_its_own_uplink_not_the_average() -> None:
    latency = steady(0.040)
    # This claim's frame came down fast and the claim went up slowly: it gets its uplink.
    assert claim(latency, 0.040, 0.045, 0.3) == (pytest.approx(0.045), "measured")
    assert claim(latency, 0.048, 0.040, 0.3) == (pytest.approx(0.040), "measured")


def test_without_clocks_half_the_exchange_round_trip_counts() -> None:
    latency = steady(0.040, clocked=False)
    shift, basis = claim(latency, 0.040, 0.046, 0.3)
    assert (shift, basis) == (pytest.approx(0.043), "measured")


def test_a_reaction_longer_than_the_response_is_refused() -> None:
    latency = steady(0.040)
    got = credit(latency, True, 100, 10.0, 10.2, 250.0, None)
    assert (got.shift, got.basis) == (pytest.approx(0.040), "refused")


def test_a_reaction_that_leaves_less_than_the_fastest_round_trip_is_cut_to_fit() -> None:
    latency = steady(0.040, clocked=False)
    # Over-reporting the reaction by 50 ms: the exchange would be 30 ms, less than the
    # fastest ping's 80 ms, so it counts as 80 ms: half of it, as an honest claim gets.
    assert claim(latency, 0.040, 0.040, 0.3, cheat=-0.050) == (pytest.approx(0.040), "measured")


def test_an_under_report_beyond_the_allowance_is_refused_on_a_steady_link() -> None:
    latency = steady(0.040)
    shift, basis = claim(latency, 0.040, 0.040, 0.3, cheat=0.100)
    assert (shift, basis) == (pytest.approx(0.040), "refused")
    # Within the 10 ms a steady link always allows, a lie gains at most that.
    shift, basis = claim(latency, 0.040, 0.040, 0.3, cheat=0.008)
    assert (shift, basis) == (pytest.approx(0.048), "measured")


def test_a_measured_claim_never_counts_before_its_window_opened() -> None:
    latency = steady(0.040)
    # Arrived 30 ms after the window opened, with a clock saying it left 40 ms before
    # arriving: it cannot have travelled longer than the 30 ms since the window opened.
    got = credit(latency, True, 100, 200.0, 200.030, 0.0, (199.990 + ORIGIN) * 1000)
    assert (got.shift, got.basis) == (pytest.approx(0.030), "measured")


def test_the_cap_still_bounds_the_credit() -> None:
    latency = steady(0.150)
    assert claim(latency, 0.150, 0.150, 0.3, cap_ms=100) == (pytest.approx(0.100), "measured")
    assert claim(latency, 0.150, 0.150, 0.3, cap_ms=100, report=False)[0] == pytest.approx(0.1)


def test_a_clock_without_a_placed_offset_falls_back_to_the_usual_delay() -> None:
    latency = steady(0.040, clocked=False)
    got = credit(latency, True, 100, 0.0, 0.5, None, 123.0)
    assert (got.shift, got.basis) == (pytest.approx(0.040), "usual")


# --- properties -------------------------------------------------------------------------

DELAYS = st.lists(st.floats(0.0, 0.2), min_size=4, max_size=32)


@settings(max_examples=300, deadline=None)
@given(
    downs=DELAYS,
    ups=DELAYS,
    down=st.floats(0.0, 0.3),
    up=st.floats(0.0, 0.3),
    reaction=st.floats(0.0, 2.0),
    told_reaction=st.one_of(st.none(), st.floats(0.0, 5.0)),
    told_clock=st.one_of(st.none(), st.floats(-5.0, 5.0)),
    clocked=st.booleans(),
    cap_ms=st.integers(0, 1000),
)
def test_whatever_a_client_reports_the_credit_stays_within_measured_bounds(
    downs: list[float],
    ups: list[float],
    down: float,
    up: float,
    reaction: float,
    told_reaction: float | None,
    told_clock: float | None,
    clocked: bool,
    cap_ms: int,
) -> None:
    """Any report, true or not: the credit is never above the cap, a measured credit
    never above the response (the claim cannot count before its window opened) and
    never more than the allowance above half the fastest round trip; anything else is
    the usual delay."""
    n = min(len(downs), len(ups))
    latency = link(downs[:n], ups[:n], clocked)
    opened = 200.0
    sent = opened + down + reaction
    arrived = sent + up
    clock = None if told_clock is None else (sent + told_clock + ORIGIN) * 1000
    reported = None if told_reaction is None else told_reaction * 1000
    got = credit(latency, True, cap_ms, opened, arrived, reported, clock)
    assert latency.rtt is not None and latency.min_rtt is not None
    assert 0.0 <= got.shift <= cap_ms / 1000 + 1e-12
    if got.basis == "measured":
        assert got.shift <= arrived - opened + 1e-9
        limit = latency.min_rtt / 2 + latency.allowance(latency.offset())
        assert got.shift <= limit + 1e-9
    else:
        assert got.basis in ("usual", "refused")
        assert got.shift == pytest.approx(min(latency.rtt / 2, cap_ms / 1000))


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    cheat=st.floats(0.0, 0.5),
    spread=st.floats(0.0, 0.05),
)
def test_an_under_reporting_client_gains_at_most_the_allowance(
    seed: int, cheat: float, spread: float
) -> None:
    """A client that pretends it sent its claim ``cheat`` earlier gets no more than an
    honest client with the same link would, plus the link's allowance."""
    rng = random.Random(seed)
    latency = link(
        [0.08 + rng.uniform(0, spread) for _ in range(32)],
        [0.08 + rng.uniform(0, spread) for _ in range(32)],
    )
    down, up = 0.08 + rng.uniform(0, spread), 0.08 + rng.uniform(0, spread)
    honest, _ = claim(latency, down, up, 0.3)
    lying, basis = claim(latency, down, up, 0.3, cheat=cheat)
    allowance = latency.allowance(latency.offset())
    assert latency.min_rtt is not None
    base = latency.min_rtt / 2
    # At most the allowance above the base: more than an honest claim only by what
    # the honest one lacked of the base-plus-allowance.
    assert lying <= base + allowance + 1e-9
    assert lying - honest <= allowance + max(0.0, base - honest) + 1e-9
    if cheat >= MAX_ALLOWANCE + spread:
        assert basis == "refused"


def test_on_a_jittery_link_the_measured_credit_follows_each_claims_own_delay() -> None:
    """Exponential jitter (mean 15 ms) on an 80 ms link, as Wi-Fi has: the measured
    credit errs far less than the usual delay does, over many claims."""
    rng = random.Random(7)

    def delay() -> float:
        return 0.08 + rng.expovariate(1 / 0.015)

    latency = link([delay() for _ in range(32)], [delay() for _ in range(32)])
    measured_errors, usual_errors = [], []
    for _ in range(500):
        down, up = delay(), delay()
        shift, basis = claim(latency, down, up, 0.3)
        usual, _ = claim(latency, down, up, 0.3, report=False)
        if basis == "measured":
            measured_errors.append(abs(up - shift))
        usual_errors.append(abs(up - usual))
    assert len(measured_errors) > 480  # honest claims are rarely refused
    assert statistics.median(measured_errors) < 0.002
    assert statistics.median(usual_errors) > 0.005


# --- the kernel's figures (rule 5) ------------------------------------------------------


def kernel_link(
    down: list[float],
    up: list[float],
    late: list[float],
    lie: bool = False,
    queueing: list[float] | None = None,
) -> Latency:
    """As :func:`link`, but the client answers ping ``i`` ``late[i]`` late (with
    ``lie``, its clock says it answered at once), and each pong comes with the
    kernel's figures: its floor the link's fastest round trip, its smoothed round trip
    that plus ``queueing[i]`` (default: the round trip's own excess, as the kernel
    measures the link, not the pong)."""
    floor = min(d + u for d, u in zip(down, up, strict=True))
    latency = Latency()
    for i, (d, u) in enumerate(zip(down, up, strict=True)):
        sent = 100.0 + i
        answered = sent + d + late[i]
        clock = (sent + d if lie else answered) + ORIGIN
        queued = d + u - floor if queueing is None else queueing[i]
        latency.add(sent, answered + u, clock * 1000, Kernel(floor + queued, 0.0, floor))
    return latency


def test_slow_pongs_get_no_more_than_the_kernel_measured() -> None:
    """Every ping answered 200 ms late on a steady 80 ms link: the pongs say 180 ms
    each way, the kernel 80 ms; a claim without a report gets the kernel's 80 ms."""
    latency = kernel_link([0.080] * 32, [0.080] * 32, [0.200] * 32)
    assert latency.rtt == pytest.approx(0.360)
    assert latency.usual() == pytest.approx(0.080)
    assert latency.ceiling() == pytest.approx(0.080 + MIN_ALLOWANCE)
    shift, basis = claim(latency, 0.080, 0.080, 0.3, report=False)
    assert (shift, basis) == (pytest.approx(0.080), "usual")
    # A report with its clock: the clock placed by slow pongs reads the uplink 100 ms
    # long, which the pongs find plausible; the kernel's ceiling cuts it.
    shift, basis = claim(latency, 0.080, 0.080, 0.3)
    assert (shift, basis) == (pytest.approx(0.080 + MIN_ALLOWANCE), "measured")


def test_late_pongs_with_a_lying_clock_widen_the_pongs_allowance_not_the_credit() -> None:
    """One pong in eight 70 ms late with a clock as if it had answered at once: the
    pongs' allowance is the most there is, but the kernel saw a steady link, so a claim
    94 ms earlier than true gains only the least allowance."""
    late = [0.070 if i % 8 == 7 else 0.0 for i in range(32)]
    latency = kernel_link([0.080] * 32, [0.080] * 32, late, lie=True)
    offset = latency.offset()
    assert latency.pong_allowance(offset) == MAX_ALLOWANCE
    assert latency.allowance(offset) == MIN_ALLOWANCE
    shift, basis = claim(latency, 0.080, 0.080, 0.3, cheat=0.094)
    assert (shift, basis) == (pytest.approx(0.080 + MIN_ALLOWANCE), "measured")
    # Without the kernel's figures (as before): 94 ms more than true.
    plain = Latency(latency.samples)
    assert claim(plain, 0.080, 0.080, 0.3, cheat=0.094)[0] == pytest.approx(0.174)


def test_the_kernel_allowance_is_twice_its_usual_queueing_and_ignores_spikes() -> None:
    steady_up = [0.080] * 32
    # A quarter of the readings inflated by 40 ms (acknowledgements the client's kernel
    # delayed): the lower quartile does not see them.
    spikes = [0.040 if i % 4 == 0 else 0.0 for i in range(32)]
    latency = kernel_link(steady_up, steady_up, [0.0] * 32, queueing=spikes)
    assert latency.kernel_excess() == 0.0
    assert latency.kernel_allowance() == MIN_ALLOWANCE
    # A link that queues 20 ms most of the time: twice that is allowed.
    queued = [0.020 + 0.010 * (i % 3) for i in range(32)]
    latency = kernel_link(steady_up, steady_up, [0.0] * 32, queueing=queued)
    assert latency.kernel_excess() == pytest.approx(0.020)
    assert latency.kernel_allowance() == pytest.approx(KERNEL_FACTOR * 0.020)
    assert latency.ceiling() == pytest.approx(0.080 + 0.040)
    latency = kernel_link(steady_up, steady_up, [0.0] * 32, queueing=[0.3] * 32)
    assert latency.kernel_allowance() == MAX_ALLOWANCE


def test_without_a_min_rtt_the_smallest_smoothed_round_trip_is_the_floor() -> None:
    latency = Latency()
    for i, rtt in enumerate([0.170, 0.165, 0.180, 0.175]):
        latency.add(100.0 + i, 100.16 + i, None, Kernel(rtt, 0.005, None))
    assert latency.kernel_floor() == pytest.approx(0.165)


def test_on_an_honest_jittery_link_the_kernel_takes_almost_nothing() -> None:
    """Exponential jitter (mean 15 ms) on an 80 ms link, the kernel smoothing the same
    round trips the pongs show: claims are credited their own uplink as before, but
    for the few whose delay is far out in the tail."""
    rng = random.Random(11)

    def delay() -> float:
        return 0.08 + rng.expovariate(1 / 0.015)

    downs, ups = [delay() for _ in range(64)], [delay() for _ in range(64)]
    smoothed, queueing = 0.190, []
    floor = min(d + u for d, u in zip(downs, ups, strict=True))
    for d, u in zip(downs, ups, strict=True):
        smoothed += (d + u - smoothed) / 8
        queueing.append(smoothed - floor)
    latency = kernel_link(downs, ups, [0.0] * 64, queueing=queueing)
    plain = Latency(latency.samples)
    same = 0
    for _ in range(500):
        down, up = delay(), delay()
        bounded, _ = claim(latency, down, up, 0.3)
        before, _ = claim(plain, down, up, 0.3)
        assert bounded <= before + 1e-12
        same += bounded == pytest.approx(before)
    assert same > 450


KERNELS = st.lists(
    st.tuples(st.floats(0.0, 0.3), st.floats(0.0, 0.3), st.one_of(st.none(), st.floats(0.0, 0.3))),
    min_size=1,
    max_size=32,
)


@settings(max_examples=300, deadline=None)
@given(
    downs=DELAYS,
    ups=DELAYS,
    kernels=KERNELS,
    down=st.floats(0.0, 0.3),
    up=st.floats(0.0, 0.3),
    reaction=st.floats(0.0, 2.0),
    told_reaction=st.one_of(st.none(), st.floats(0.0, 5.0)),
    told_clock=st.one_of(st.none(), st.floats(-5.0, 5.0)),
    cap_ms=st.integers(0, 1000),
)
def test_whatever_the_pongs_say_no_credit_passes_the_kernels_ceiling(
    downs: list[float],
    ups: list[float],
    kernels: list[tuple[float, float, float | None]],
    down: float,
    up: float,
    reaction: float,
    told_reaction: float | None,
    told_clock: float | None,
    cap_ms: int,
) -> None:
    n = min(len(downs), len(ups))
    latency = link(downs[:n], ups[:n])
    for rtt, rttvar, least in kernels:
        latency.kernel.append(Kernel(rtt, rttvar, least))
    opened = 200.0
    sent = opened + down + reaction
    arrived = sent + up
    clock = None if told_clock is None else (sent + told_clock + ORIGIN) * 1000
    reported = None if told_reaction is None else told_reaction * 1000
    got = credit(latency, True, cap_ms, opened, arrived, reported, clock)
    ceiling = latency.ceiling()
    floor = latency.kernel_floor()
    assert ceiling is not None and floor is not None
    assert 0.0 <= got.shift <= min(ceiling, cap_ms / 1000) + 1e-12
    assert got.shift <= floor / 2 + MAX_ALLOWANCE + 1e-12
