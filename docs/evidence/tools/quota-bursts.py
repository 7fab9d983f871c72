#!/usr/bin/env python3
"""How Kafka's replication quota delivered the pacing rate: per paced round, what the catch-up fetched between two
looks of the agent against the rate set, and the P99 of the seconds in each kind of interval.

Kafka enforces a replication throttle on the average over its quota window (`replication.quota.window.num` samples
of `replication.quota.window.size.seconds`: 11 of 1 s by default, `SimpleRate`): a fetch is served in full while the
average is under the rate and not at all while it is over. When a sample that held a burst leaves the window, the
average falls at once and the next fetches take back what left: the catch-up comes in bursts and holds about a
window apart, at the rate set only on average. This tool shows it from `pacing.csv` (bytes behind at each look; for
preferred-first rounds the preferred replicas' bytes behind from the reason text) and relates it to
`latency-seconds.csv` (the P99 of all sends per second, from 15 s after unfencing, while the catch-up runs).

An interval is a burst when it fetched over 1.5x the rate set at its start, a hold under 0.5x. The relation to the
P99 is at the looks' resolution (2 s): a signal, not a profile.

Usage: python3 docs/evidence/tools/quota-bursts.py docs/evidence/run21-kip
"""
import re
import statistics
import sys
from collections import defaultdict
from runfiles import rows

MIB = 1048576.0
PREFERRED = re.compile(r'in: ([\d.]+) MiB of its preferred replicas behind')


def looks(pacing, key):
    """(time, MiB behind, MiB/s set) at each look of the round that set a rate and knew what was behind."""
    points = []
    for r in pacing:
        if (r['policy'], r['round']) != key or not r['rate_bytes'] or not r['bytes_behind']:
            continue
        preferred = PREFERRED.search(r['reason'])
        if 'preferred' in r['policy'] or 'deadline' in r['policy']:
            if not preferred:
                continue
            behind = float(preferred.group(1))
        else:
            behind = int(r['bytes_behind']) / MIB
        points.append((float(r['at_s']), behind, int(r['rate_bytes']) / MIB))
    return points


def kind(fetched, rate):
    if fetched > 1.5 * rate:
        return 'burst'
    if fetched < 0.5 * rate:
        return 'hold'
    return 'at rate'


def main(run):
    pacing = rows(run, 'pacing.csv')
    unfenced = {(r['policy'], r['round']): float(r['unfenced_at_s']) for r in rows(run, 'rounds.csv')}
    seconds = defaultdict(dict)
    for r in rows(run, 'latency-seconds.csv'):
        if r['view'] == 'all' and r['p99_ms']:
            seconds[(r['policy'], r['round'])][int(r['second'])] = float(r['p99_ms'])
    print('policy | round | catch-up s | fetched MiB/s | set MiB/s (time-weighted) | intervals burst / at rate / hold')
    p99s = defaultdict(lambda: defaultdict(list))
    for key in sorted({(r['policy'], r['round']) for r in pacing}):
        points = looks(pacing, key)
        if len(points) < 2:
            continue
        kinds = defaultdict(int)
        for (ta, ba, rate), (tb, bb, _) in zip(points, points[1:]):
            k = kind((ba - bb) / (tb - ta), rate)
            kinds[k] += 1
            for s in range(int(ta) + 1, int(tb) + 1):
                if s in seconds[key] and s >= unfenced[key] + 15:
                    p99s[key[0]][k].append(seconds[key][s])
        span = points[-1][0] - points[0][0]
        weighted = sum((b[0] - a[0]) * a[2] for a, b in zip(points, points[1:])) / span
        print('%s | %s | %.1f | %.1f | %.1f | %d / %d / %d' % (
            key[0], key[1], span, (points[0][1] - points[-1][1]) / span, weighted,
            kinds['burst'], kinds['at rate'], kinds['hold']))
    print()
    print('policy | interval | seconds | median P99 ms | share of seconds over 100 ms')
    for policy in sorted(p99s):
        for k in ('burst', 'at rate', 'hold'):
            v = p99s[policy][k]
            if v:
                print('%s | %s | %d | %.0f | %.2f' % (
                    policy, k, len(v), statistics.median(v), sum(x > 100 for x in v) / len(v)))


if __name__ == '__main__':
    main(sys.argv[1].rstrip('/'))
