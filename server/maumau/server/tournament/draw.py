"""Seating a tournament's series: who sits at which table, with how many bots, who has a bye.

Players are opaque string keys. Everything here is a pure function of its arguments:
no clock, no I/O, and the only randomness is the first series' draw from the
tournament's seed, so every seating can be drawn again from what was recorded.

Table sizes (:func:`table_sizes`), for ``N`` players and the table size ``T``
(2 to 10):

- **With bots** (the director lets bots fill short tables): ``k = ceil(N / T)``
  tables. The ``N`` players are spread over them as evenly as possible (the sizes
  differ by at most one, the larger tables first) and every table is filled up to
  ``T`` seats with bots. Nobody has a bye.
- **Without bots**: the smallest table allowed has ``lo = max(2, T - 1)`` players.
  If ``N < lo``, the ``N`` players sit at one table (if ``N >= 2``) or the one player
  has a bye. Otherwise as many players as possible are seated at tables of ``lo`` to
  ``T`` players: the number of tables ``k`` is the one that seats the most players,
  ``min(N, k * T)``, with ``k * lo <= N`` (the smallest such ``k`` on a tie); the
  seated players are spread evenly over the ``k`` tables (larger first) and the
  others have byes. For ``T = 4``: 5 players make one table of 4 and a bye, 6 make
  3 + 3, 7 make 4 + 3, 11 make 4 + 4 + 3. For ``T = 10``, 11 players make a table of
  10 and a bye. There is never a table of one.

The first series (:func:`first_series`) is drawn at random: a copy of the players is
shuffled by ``random.Random(seed)``; the byes are the last ones of the shuffled
order and the tables take consecutive runs of the rest, table 1 first. The same
players in the same order with the same seed give the same seating.

Each later series (:func:`later_series`) is seated by the standings (best first):

- **Byes** go to the players with the fewest byes so far; among those, to the lowest
  in the standings.
- **Tables**: everybody else is seated "first with first" (table 1 gets the best
  players, table 2 the next, and so on), avoiding repeat pairings where it can. Two
  players who sat at the same table in earlier series have *met*; a seating's
  *repeats* are the sum, over every pair of players at the same table, of the times
  that pair has met before. The seating chosen has the fewest repeats of all
  seatings with these table sizes (so none at all whenever that is possible) and,
  among those, keeps the standings together: of two such seatings, the one whose
  table 1 has the better standings positions wins (its players' positions in
  ascending order, compared one by one: the first lower position wins), then the
  same for table 2, and so on. With no meetings at all, the tables are consecutive
  runs of the standings.
- The seating is found by a depth-first search over the seats in order, candidates
  in standings order, first allowing no repeats and then, if there is no such
  seating, looking for the fewest. The search is exact unless it uses up its budget
  of 20 000 candidates tried. That never happens with nine players or fewer (trying
  every seating of nine takes about 5 000 candidates, and the search makes at most
  two passes), but may with more players and many meetings among them, or where
  repeats cannot be avoided. Then a local search
  makes the seating instead: each seat in turn takes the best-placed remaining
  player who adds the fewest repeats; players are swapped between tables to lower
  the repeats (a tabu search, its only randomness a generator of fixed seed); then a
  player better placed than someone at an earlier table swaps with them wherever
  that adds no repeat. Its result is deterministic too, but it may miss the fewest
  repeats or the best grouping.

At every table the players sit in standings order (the first series: in drawn
order). The final (:func:`final_table`) seats the top of the standings, as many as
a table holds, at one table without bots; nobody else plays in it and nobody has a
bye.
"""

from __future__ import annotations

import bisect
import itertools
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

SEARCH_BUDGET = 20_000
"""Candidates the search of a later series may try before a local search takes over."""

LOCAL_BUDGET = 20_000
"""Swaps each step of the local search may weigh."""

TABU_TENURE = 5
"""Swaps (at least) before the tabu search lets a player back to a table they left."""

MIN_TABLE_SIZE = 2
MAX_TABLE_SIZE = 10


@dataclass(frozen=True, slots=True)
class Seating:
    """One series' seating: the tables in order (table 1 first) and the byes."""

    tables: tuple[tuple[str, ...], ...]
    """The player keys at each table, in seat order."""
    bots: tuple[int, ...]
    """How many bots to add at each table (one number per table)."""
    byes: tuple[str, ...]
    """The players without a table this series."""


def table_sizes(players: int, size: int, bots: bool) -> tuple[list[int], int]:
    """The number of players at each table (larger tables first) and the number of
    byes, for ``players`` players at tables of ``size`` seats (see the module's rules).
    """
    if not MIN_TABLE_SIZE <= size <= MAX_TABLE_SIZE:
        raise ValueError(f"table size {size} is not between 2 and 10")
    if players < 0:
        raise ValueError(f"{players} players")
    if players == 0:
        return [], 0
    if bots:
        return _spread(players, -(-players // size)), 0
    smallest = max(MIN_TABLE_SIZE, size - 1)
    if players < smallest:
        return ([players], 0) if players >= MIN_TABLE_SIZE else ([], players)
    tables = min(-(-players // size), players // smallest)
    seated = min(players, tables * size)
    return _spread(seated, tables), players - seated


def _spread(players: int, tables: int) -> list[int]:
    """``players`` over ``tables`` tables as evenly as possible, larger tables first."""
    base, extra = divmod(players, tables)
    return [base + 1] * extra + [base] * (tables - extra)


def pairs(table: Sequence[str]) -> list[frozenset[str]]:
    """Every pair of players at ``table`` (each once), the keys of ``met`` counts."""
    return [frozenset(pair) for pair in itertools.combinations(table, 2)]


def first_series(players: Sequence[str], size: int, bots: bool, seed: int) -> Seating:
    """The first series' seating, drawn at random from ``seed`` (see the module's rules)."""
    _check_unique(players)
    order = list(players)
    random.Random(seed).shuffle(order)
    sizes, byes = table_sizes(len(order), size, bots)
    seated = len(order) - byes
    tables: list[tuple[str, ...]] = []
    start = 0
    for count in sizes:
        tables.append(tuple(order[start : start + count]))
        start += count
    return _seating(tables, order[seated:], size, bots)


def later_series(
    ranked: Sequence[str],
    size: int,
    bots: bool,
    met: Mapping[frozenset[str], int],
    byes: Mapping[str, int],
) -> Seating:
    """A later series' seating by the standings ``ranked`` (best first), given how
    often each pair has ``met`` and how many ``byes`` each player has had (missing
    keys: none). See the module's rules."""
    _check_unique(ranked)
    sizes, bye_count = table_sizes(len(ranked), size, bots)
    # Fewest byes first, then lowest in the standings.
    by_need = sorted(range(len(ranked)), key=lambda rank: (byes.get(ranked[rank], 0), -rank))
    resting = set(by_need[:bye_count])
    seated = [key for rank, key in enumerate(ranked) if rank not in resting]
    resting_keys = [key for rank, key in enumerate(ranked) if rank in resting]
    tables = _seat(sizes, _meetings(seated, met))
    return _seating(
        [tuple(seated[position] for position in table) for table in tables],
        resting_keys,
        size,
        bots,
    )


def final_table(ranked: Sequence[str], size: int) -> Seating:
    """The final: the top ``min(size, len(ranked))`` of the standings ``ranked`` at one
    table, in standings order, without bots. The others do not play in it (they have
    no bye either). It takes at least two players."""
    _check_unique(ranked)
    if not MIN_TABLE_SIZE <= size <= MAX_TABLE_SIZE:
        raise ValueError(f"table size {size} is not between 2 and 10")
    if len(ranked) < MIN_TABLE_SIZE:
        raise ValueError("a final takes at least two players")
    return Seating(tables=(tuple(ranked[:size]),), bots=(0,), byes=())


def _check_unique(players: Sequence[str]) -> None:
    if len(set(players)) != len(players):
        raise ValueError("a player is listed twice")


def _seating(tables: list[tuple[str, ...]], byes: list[str], size: int, bots: bool) -> Seating:
    return Seating(
        tables=tuple(tables),
        bots=tuple(size - len(table) if bots else 0 for table in tables),
        byes=tuple(byes),
    )


def _meetings(seated: list[str], met: Mapping[frozenset[str], int]) -> list[dict[int, int]]:
    """For each seated player (by standings position), the positions of the players
    met before and how often."""
    position = {key: index for index, key in enumerate(seated)}
    meetings: list[dict[int, int]] = [{} for _ in seated]
    for pair, times in met.items():
        if times > 0:
            a, b = pair
            at_a = position.get(a)
            at_b = position.get(b)
            if at_a is not None and at_b is not None:
                meetings[at_a][at_b] = times
                meetings[at_b][at_a] = times
    return meetings


def _seat(sizes: list[int], meetings: list[dict[int, int]]) -> list[list[int]]:
    """The tables (lists of standings positions, ascending) for the ``sizes`` given:
    the fewest repeats, then the best players at the first tables (see the module).

    First a search allowing no repeats; if it shows there is no such seating, a
    search for the fewest, starting from what the local seating needs. If the
    budget runs out before a search finds anything, the local seating is taken.
    """
    search = _Search(sizes, meetings)
    found = search.run(0)
    if found is None and not search.out_of_budget:
        fallback = _Local(sizes, meetings).seating()
        found = search.run(_repeats(fallback, meetings))
        return found if found is not None else fallback
    return found if found is not None else _Local(sizes, meetings).seating()


def _repeats(tables: list[list[int]], meetings: list[dict[int, int]]) -> int:
    """The repeats of a seating: the earlier meetings of every pair at a table."""
    total = 0
    for table in tables:
        for index, player in enumerate(table):
            met = meetings[player]
            for other in table[index + 1 :]:
                total += met.get(other, 0)
    return total


class _Search:
    """Depth-first branch and bound for the first seating, in the order of the
    module's rule, among those with the fewest repeats.

    The seats are filled in order (table 1's seats first) and each table's players
    are taken in ascending standings positions, so a table is one combination and
    candidates are tried in the order of the rule. A branch is cut as soon as its
    repeats exceed the limit; each seating found lowers the limit to one less than its
    repeats, so every later one found is better, and the last one found is the first
    of the best. Seatings that differ only in the order of tables of the same size
    are the same seating: only the one whose tables of each size begin with
    ascending positions is visited. So a table of the last size begins with the best
    remaining player, and a table of the larger size begins after the one before it.
    All runs share one budget of :data:`SEARCH_BUDGET` candidates tried.
    """

    def __init__(self, sizes: list[int], meetings: list[dict[int, int]]) -> None:
        self.sizes = sizes
        self.meetings = meetings
        self.steps = SEARCH_BUDGET
        self.out_of_budget = False

    def run(self, limit: int) -> list[list[int]] | None:
        """The first of the best seatings with at most ``limit`` repeats; None if
        there is none. If the budget runs out first: the best found, if any."""
        sizes = self.sizes
        meetings = self.meetings
        count = sum(sizes)
        if count == 0:
            return []
        slot_table = [table for table, size in enumerate(sizes) for _ in range(size)]
        slot_seat = [seat for size in sizes for seat in range(size)]
        last_size_from = sizes.index(sizes[-1])
        free = list(range(count))  # the players not seated yet, ascending
        tables: list[list[int]] = [[] for _ in sizes]
        taken_at = [0] * count  # the index in ``free`` of the player seated at each depth
        next_try = [0] * count  # the index in ``free`` of the next candidate at each depth
        cost = [0] * (count + 1)  # the repeats of the seats before each depth
        best: list[list[int]] | None = None
        steps = self.steps
        depth = 0
        while True:
            if depth == count:
                best = [list(table) for table in tables]
                limit = cost[depth] - 1
                if limit < 0:
                    break
            else:
                table = slot_table[depth]
                seat = slot_seat[depth]
                members = tables[table]
                if seat == 0 and table >= last_size_from:
                    stop = 1
                else:
                    stop = len(free) - (sizes[table] - seat) + 1
                index = first = next_try[depth]
                total = base = cost[depth]
                while index < stop:
                    met = meetings[free[index]]
                    total = base
                    if met:
                        for member in members:
                            total += met.get(member, 0)
                    if total <= limit:
                        break
                    index += 1
                steps -= index - first + (index < stop)
                if steps < 0:
                    self.out_of_budget = True
                    break
                if index < stop:
                    members.append(free.pop(index))
                    taken_at[depth] = index
                    next_try[depth] = index + 1
                    cost[depth + 1] = total
                    depth += 1
                    if depth < count:
                        next_try[depth] = _first_candidate(
                            depth, slot_table, slot_seat, sizes, tables, free, last_size_from
                        )
                    continue
            # Back to the seat before: free its player and try its next candidate.
            if depth == 0:
                break
            depth -= 1
            free.insert(taken_at[depth], tables[slot_table[depth]].pop())
        self.steps = max(steps, 0)
        return best


def _first_candidate(
    depth: int,
    slot_table: list[int],
    slot_seat: list[int],
    sizes: list[int],
    tables: list[list[int]],
    free: list[int],
    last_size_from: int,
) -> int:
    """The index in ``free`` of the first candidate for the seat at ``depth``."""
    table = slot_table[depth]
    if slot_seat[depth] > 0:
        return bisect.bisect_right(free, tables[table][-1])
    if 0 < table < last_size_from and sizes[table - 1] == sizes[table]:
        return bisect.bisect_right(free, tables[table - 1][0])
    return 0


class _Local:
    """The seating used when the search runs out of budget, made in four steps.

    1. Greedy: each seat in order takes the best-placed remaining player who adds
       the fewest repeats to its table.
    2. Repairs: while a player has repeats at their table and swapping them with a
       player of another table lowers the repeats, make the first such swap (the
       tables nearest to theirs first, so the tables stay grouped by standings).
    3. Escape (:meth:`_escape`): a tabu search, for when no single swap helps.
    4. Regrouping: while a player is better placed in the standings than someone at
       an earlier table and swapping the two does not raise the repeats, make the
       swap (for table 1 first, the best such player first, swapped with the worst
       one there can be).

    ``here[player][table]`` keeps each player's repeats with each table's players,
    so that a swap is weighed in constant time. Steps 2 to 4 each weigh at most
    :data:`LOCAL_BUDGET` swaps.
    """

    def __init__(self, sizes: list[int], meetings: list[dict[int, int]]) -> None:
        self.sizes = sizes
        self.meetings = meetings
        self.tables: list[list[int]] = []
        self.table_of: list[int] = [0] * sum(sizes)
        self.here: list[list[int]] = []

    def seating(self) -> list[list[int]]:
        self._greedy()
        self._count_repeats()
        self._repair()
        self._escape()
        self._regroup()
        return [sorted(table) for table in self.tables]

    def _count_repeats(self) -> None:
        for index, table in enumerate(self.tables):
            for player in table:
                self.table_of[player] = index
        self.here = [[0] * len(self.tables) for _ in self.table_of]
        for player, met in enumerate(self.meetings):
            row = self.here[player]
            for other, times in met.items():
                row[self.table_of[other]] += times

    def _greedy(self) -> None:
        meetings = self.meetings
        free = list(range(len(self.table_of)))
        added = [0] * len(self.table_of)  # each free player's repeats with the table so far
        for size in self.sizes:
            members: list[int] = []
            for player in free:
                added[player] = 0
            for _ in range(size):
                best = 0
                for index, candidate in enumerate(free):
                    if added[candidate] < added[free[best]]:
                        best = index
                    if added[candidate] == 0:
                        break
                player = free.pop(best)
                members.append(player)
                for other, times in meetings[player].items():
                    added[other] += times
            self.tables.append(members)

    def _gain(self, x: int, y: int) -> int:
        """How much swapping ``x`` and ``y`` (at different tables) lowers the repeats."""
        a, b = self.table_of[x], self.table_of[y]
        both = self.meetings[x].get(y, 0)
        here_x, here_y = self.here[x], self.here[y]
        return here_x[a] + here_y[b] - (here_x[b] - both) - (here_y[a] - both)

    def _swap(self, x: int, y: int) -> None:
        a, b = self.table_of[x], self.table_of[y]
        table_a, table_b = self.tables[a], self.tables[b]
        table_a[table_a.index(x)] = y
        table_b[table_b.index(y)] = x
        self.table_of[x], self.table_of[y] = b, a
        for player, start, end in ((x, a, b), (y, b, a)):
            for other, times in self.meetings[player].items():
                row = self.here[other]
                row[start] -= times
                row[end] += times

    def _repair(self) -> None:
        steps = LOCAL_BUDGET
        count = len(self.tables)
        changed = True
        while changed and steps > 0:
            changed = False
            for x in range(len(self.table_of)):
                a = self.table_of[x]
                if self.here[x][a] == 0:
                    continue
                for b in _nearest(a, count):
                    for y in self.tables[b]:
                        steps -= 1
                        if self._gain(x, y) > 0:
                            self._swap(x, y)
                            changed = True
                            break
                    if self.table_of[x] != a or steps <= 0:
                        break
                if steps <= 0:
                    return

    def _escape(self) -> None:
        """Tabu search: while repeats are left, make the best swap of a player with
        repeats, even one that raises the repeats, but do not let a player go back to a
        table they left within the last few swaps (:data:`TABU_TENURE`, plus 0 to 2
        drawn from a generator of fixed seed) unless that gives the fewest repeats
        yet. Keep the best seating seen."""
        count = len(self.table_of)
        rng = random.Random(count)
        total = sum(self.here[player][self.table_of[player]] for player in range(count)) // 2
        least = total
        best = [list(table) for table in self.tables]
        barred = [[0] * len(self.tables) for _ in range(count)]  # swap until which banned
        steps = LOCAL_BUDGET
        swap = 0
        while least > 0:
            swap += 1
            chosen: tuple[int, int] | None = None
            chosen_gain = 0
            for x in range(count):
                a = self.table_of[x]
                if self.here[x][a] == 0:
                    continue
                for y in _around(x, count):
                    b = self.table_of[y]
                    if b == a:
                        continue
                    steps -= 1
                    gain = self._gain(x, y)
                    if chosen is not None and gain <= chosen_gain:
                        continue
                    if (barred[x][b] > swap or barred[y][a] > swap) and total - gain >= least:
                        continue
                    chosen, chosen_gain = (x, y), gain
            if chosen is None or steps < 0:
                break
            x, y = chosen
            a, b = self.table_of[x], self.table_of[y]
            self._swap(x, y)
            total -= chosen_gain
            barred[x][a] = swap + TABU_TENURE + rng.randrange(3)
            barred[y][b] = swap + TABU_TENURE + rng.randrange(3)
            if total < least:
                least = total
                best = [list(table) for table in self.tables]
        self.tables = best
        self._count_repeats()

    def _regroup(self) -> None:
        steps = LOCAL_BUDGET
        for a, table_a in enumerate(self.tables):
            changed = True
            while changed:
                changed = False
                for y in range(max(table_a)):
                    if self.table_of[y] <= a:
                        continue
                    for x in sorted(table_a, reverse=True):
                        if x < y:
                            break
                        steps -= 1
                        if steps < 0:
                            return
                        if self._gain(x, y) >= 0:
                            self._swap(x, y)
                            changed = True
                            break
                    if changed:
                        break


def _around(player: int, count: int) -> Iterator[int]:
    """The other standings positions, nearest to ``player`` first (the better first)."""
    for distance in range(1, count):
        if player - distance >= 0:
            yield player - distance
        if player + distance < count:
            yield player + distance
        elif player - distance < 0:
            return


def _nearest(table: int, count: int) -> list[int]:
    """The other tables, nearest to ``table`` first (the earlier one first on a tie)."""
    order: list[int] = []
    for distance in range(1, count):
        for other in (table - distance, table + distance):
            if 0 <= other < count:
                order.append(other)
    return order
