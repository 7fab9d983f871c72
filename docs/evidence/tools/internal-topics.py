#!/usr/bin/env python3
"""How soon the restarted broker's replicas of internal topics were back, against all of its replicas: per round, the
seconds from unfencing until every internal replica it hosts was in its ISR, until it led every internal partition it
is the preferred leader of, and until every replica it hosts was in its ISR.

Internal: Kafka's own topics (`__consumer_offsets`, `__transaction_state`, ...) and any topic named from `_` (the
agent's state topic), as `partitions.csv` counts them (`internal_*` columns; runs before they were recorded have none).
Pacing throttles every out-of-sync replica of a recovering broker alike; whether internal topics should go first is
decided from this: if they are back within seconds under every policy, they need nothing of their own.

Usage: python3 docs/evidence/tools/internal-topics.py docs/evidence/runNN-...
"""
import sys
from collections import defaultdict
from runfiles import rows


def first_at(samples, since, test):
    """The first sample time at or after `since` from which `test` holds in every later sample, minus `since`."""
    at = None
    for t, r in samples:
        if t < since:
            continue
        if test(r):
            at = t if at is None else at
        else:
            at = None
    return None if at is None else at - since


def text(s):
    return '-' if s is None else '%.1f' % s


def main(run):
    unfenced = {(r['policy'], r['round']): float(r['unfenced_at_s']) for r in rows(run, 'rounds.csv')}
    samples = defaultdict(list)
    for r in rows(run, 'partitions.csv'):
        samples[(r['policy'], r['round'])].append((float(r['at_s']), r))
    if not any(r.get('internal_hosted') for s in samples.values() for _, r in s):
        sys.exit(run + ': partitions.csv has no internal_* columns (a run before they were recorded)')
    print('policy | round | internal hosted | internal in ISR s | internal preferred led s | all in ISR s')
    for key in sorted(samples):
        s = sorted(samples[key], key=lambda x: x[0])
        since = unfenced[key]
        hosted = max(int(r['internal_hosted']) for _, r in s)
        print('%s | %s | %d | %s | %s | %s' % (
            key[0], key[1], hosted,
            text(first_at(s, since, lambda r: r['internal_in_isr'] == r['internal_hosted'])),
            text(first_at(s, since, lambda r: r['internal_preferred_led'] == r['internal_preferred'])),
            text(first_at(s, since, lambda r: r['hosted_in_isr'] == r['hosted']))))


if __name__ == '__main__':
    main(sys.argv[1].rstrip('/'))
