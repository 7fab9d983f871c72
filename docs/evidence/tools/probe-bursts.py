#!/usr/bin/env python3
"""How evenly a throttled catch-up of `pacer throttle-probe` came in: per case and restart, what the restarted broker
fetched in each second of its catch-up (from the probe's looks every 500 ms at its hosted bytes), against the rate.

Kafka holds a replication throttle on the average over its quota window (`replication.quota.window.num` samples of
`replication.quota.window.size.seconds`), serving a fetch in full while the average is under the rate and nothing
while it is over; so a catch-up can come in bursts and holds at the right average. A second is a burst when it
fetched over 1.5x the rate, a hold under 0.5x; the longest hold is in seconds in a row.

The catch-up: from the first look the restarted broker answered to the first look within 1 % of what it hosts at
the end (the probe's "observed" span).

Each second is judged against the rate in force in it: the probe records it (`rate_bytes`), and a stepped case moves
it between its rate and half of it.

Usage: python3 docs/evidence/tools/probe-bursts.py DIR [RATE_MIB_PER_S]
  DIR holds catch-up.csv (a `pacer throttle-probe --out DIR` run); RATE, the --rate in MiB/s (default 10), is used
  only for a catch-up.csv written before the probe recorded the rate
"""
import statistics
import sys
from collections import defaultdict
from runfiles import rows

MIB = 1048576.0


def seconds(samples, rate):
    """(at, hosted bytes, rate) samples of the catch-up, to (MiB fetched, MiB/s in force) in each whole second from its
    start; the rate is the sample's where the probe recorded it (stepped cases), else the one given."""
    known = [(t, b) for t, b, _ in samples if b is not None]
    rates = [(t, r if r is not None else rate) for t, b, r in samples if b is not None]
    if len(known) < 3:
        return []
    end = max(b for _, b in known)
    span = known
    last = next(i for i, (_, b) in enumerate(span) if b >= 0.99 * end)
    span = span[:last + 1]
    t0 = span[0][0]
    out = []
    second = 1
    i = 0
    prev = span[0][1]
    while t0 + second <= span[-1][0]:
        # the hosted bytes at t0 + second, by linear interpolation between the looks around it
        while span[i + 1][0] < t0 + second:
            i += 1
        (ta, ba), (tb, bb) = span[i], span[i + 1]
        at = ba + (bb - ba) * (t0 + second - ta) / (tb - ta)
        out.append(((at - prev) / MIB, rates[i + 1][1]))
        prev = at
        second += 1
    return out


def longest(flags):
    best = run = 0
    for f in flags:
        run = run + 1 if f else 0
        best = max(best, run)
    return best


def main(run, rate):
    by = defaultdict(list)
    for r in rows(run, 'catch-up.csv'):
        by[(r['case'], r['phase'])].append((
            float(r['at_s']),
            int(r['hosted_bytes']) if r['hosted_bytes'] else None,
            int(r['rate_bytes']) / MIB if r.get('rate_bytes') else None))
    print('case | restart | catch-up s | median MiB/s | seconds over 1.5x / under 0.5x | longest hold s | CV')
    for key, samples in by.items():
        pairs = seconds(sorted(samples, key=lambda x: x[0]), rate)
        if len(pairs) < 3:
            continue
        per = [x for x, _ in pairs]
        over = sum(x > 1.5 * r for x, r in pairs)
        under = [x < 0.5 * r for x, r in pairs]
        cv = statistics.pstdev(per) / statistics.mean(per) if statistics.mean(per) > 0 else float('nan')
        print('%s | %s | %d | %.1f | %d / %d | %d | %.2f' % (
            key[0], key[1], len(per), statistics.median(per), over, sum(under), longest(under), cv))


if __name__ == '__main__':
    main(sys.argv[1].rstrip('/'), float(sys.argv[2]) if len(sys.argv) > 2 else 10.0)
