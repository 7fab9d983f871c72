#!/usr/bin/env python3
"""Where a round's slow seconds fall over KIP-1358's window (the ten minutes from unfencing): per round, the seconds
whose P99 of all sends exceeded a bound (100 ms unless given), split by where they fell: in the first 15 s after
unfencing, during the catch-up before the first election to the restarted broker, around the return of leadership
(from 2 s before the first such election to 5 s after the last), and after it; with the median per-second P99 of the
catch-up and of the time after.

Over ten minutes at 100 sends a second, the P99 is set by the slowest 600 sends: about six seconds' worth. A round
with more slow seconds than that cannot have a ten-minute P99 under the bound.

Usage: python3 docs/evidence/tools/slow-seconds.py docs/evidence/run21-kip [BOUND_MS]
"""
import statistics
import sys
from collections import defaultdict
from runfiles import rows

WINDOW_S = 600


def main(run, bound):
    rounds = {(r['policy'], r['round']): r for r in rows(run, 'rounds.csv')}
    seconds = defaultdict(dict)
    for r in rows(run, 'latency-seconds.csv'):
        if r['view'] == 'all' and r['p99_ms']:
            seconds[(r['policy'], r['round'])][int(r['second'])] = float(r['p99_ms'])
    elections = defaultdict(list)
    for r in rows(run, 'agent-runs.csv'):
        if int(r['elected_to_broker']) > 0:
            elections[(r['policy'], r['round'])].append(float(r['at_s']))
    print('policy | round | seconds over %g ms: unfencing / catch-up / return / after | median P99 ms: catch-up / after'
          % bound)
    for key in sorted(rounds):
        unfenced = float(rounds[key]['unfenced_at_s'])
        if not elections[key]:
            continue
        first, last = min(elections[key]), max(elections[key])

        def where(t):
            if t < unfenced + 15:
                return 'unfencing'
            if t < first - 2:
                return 'catch-up'
            if t <= last + 5:
                return 'return'
            return 'after'

        slow = defaultdict(int)
        p99s = defaultdict(list)
        for t, p99 in seconds[key].items():
            if unfenced <= t < unfenced + WINDOW_S:
                p99s[where(t)].append(p99)
                if p99 > bound:
                    slow[where(t)] += 1

        def med(name):
            return '%.0f' % statistics.median(p99s[name]) if p99s[name] else '-'

        print('%s | %s | %d / %d / %d / %d | %s / %s' % (
            key[0], key[1], slow['unfencing'], slow['catch-up'], slow['return'], slow['after'],
            med('catch-up'), med('after')))


if __name__ == '__main__':
    main(sys.argv[1].rstrip('/'), float(sys.argv[2]) if len(sys.argv) > 2 else 100.0)
