#!/usr/bin/env python3
"""What each return of leadership costs the writes it moves: per round, every agent run that elected the restarted
broker (agent-runs.csv), with the P99 of the sends to the partitions it led (view `leader`) and of all sends in the
three seconds from that run (the second it ran and the two after), beside the median per-second P99 of all sends
over the 30 s before the first such run (the stretch the returns are judged against).

Seconds are those of latency-seconds.csv (a send counted in the second it completed) on the clock of rounds.csv and
agent-runs.csv.

Usage: python3 docs/evidence/tools/return-transient.py docs/evidence/run21-kip
"""
import csv
import statistics
import sys
from collections import defaultdict
from runfiles import rows


def main(run):
    seconds = defaultdict(dict)
    for r in rows(run, 'latency-seconds.csv'):
        if r['p99_ms']:
            seconds[(r['policy'], r['round'], r['view'])][int(r['second'])] = (float(r['p99_ms']), int(r['count']))
    batches = defaultdict(list)
    for r in rows(run, 'agent-runs.csv'):
        if int(r['elected_to_broker']) > 0:
            batches[(r['policy'], r['round'])].append((float(r['at_s']), int(r['elected_to_broker'])))
    print('policy | round | returns (elections) | before: median P99 all ms | per return: leader-view P99 ms'
          ' (sends), all-view P99 ms, worst first')
    for key in sorted(batches):
        policy, rnd = key
        runs = sorted(batches[key])
        first = int(runs[0][0])
        all_view = seconds[(policy, rnd, 'all')]
        before = [all_view[s][0] for s in range(first - 30, first) if s in all_view]
        cells = []
        for at, n in runs:
            s0 = int(at)
            leader = [seconds[(policy, rnd, 'leader')].get(s) for s in range(s0, s0 + 3)]
            leader = [x for x in leader if x]
            total = [all_view.get(s) for s in range(s0, s0 + 3)]
            total = [x for x in total if x]
            lp99 = max((x[0] for x in leader), default=float('nan'))
            sends = sum(x[1] for x in leader)
            ap99 = max((x[0] for x in total), default=float('nan'))
            cells.append((ap99, n, lp99, sends))
        cells.sort(reverse=True)
        text = ', '.join('%d: %.0f (%d), %.0f' % (n, lp, sends, ap) for ap, n, lp, sends in cells[:4])
        more = '' if len(cells) <= 4 else ' ... (%d more)' % (len(cells) - 4)
        print('%s | %s | %d (%d) | %s | %s%s' % (
            policy, rnd, len(runs), sum(n for _, n in runs),
            '%.0f' % statistics.median(before) if before else '-', text, more))


if __name__ == '__main__':
    main(sys.argv[1].rstrip('/'))
