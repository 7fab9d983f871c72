#!/usr/bin/env python3
"""Whether a round's restarted broker came back inside its leaders' `replica.lag.time.max.ms`: per round, the seconds
from the stop to unfencing, the P99 of the writes to partitions whose ISR did not hold the broker (window, by role),
and the worst second of all sends in the first 15 s after unfencing.

Why (Kafka's source, `Partition.maybeIncrementLeaderHW`, `isReplicaIsrEligible`, `Replica.isCaughtUp`): a leader's
high watermark also waits for a follower outside the ISR that is unfenced, not shutting down, fetching with its
current broker epoch, and caught up within `replica.lag.time.max.ms` (30 s by default) of its last caught-up time,
which the leader keeps from before the stop (KAFKA-15021). A broker unfenced less than 30 s after its stop therefore
holds every `acks=all` write to the partitions it follows out of their ISR until the 30 s pass or it reaches the
high watermark: the writes "not in ISR" wait for the broker they are not waiting for by the ISR. Rounds that come
back later should not show it. The agent, for its part, leaves such a broker unthrottled until the 30 s pass (its
caught-up grace: a throttled fetch would hold those writes longer), so a paced round that comes back inside the 30 s
starts its catch-up unpaced; the column "unthrottled after unfencing" says for how long (pacing.csv).

Usage: python3 docs/evidence/tools/caught-up-trap.py docs/evidence/run21-kip [LAG_TIME_S]
"""
import re
import sys
from collections import defaultdict
from runfiles import rows

GRACE = re.compile(r'^back within replica.lag.time.max.ms.*unthrottled for (\d+) s more')


def grace_left(pacing, key, unfenced_at):
    """Seconds pacing left the broker unthrottled after unfencing (its caught-up grace), from the first look after it;
    '-' for a round with no pacing, 0 when the grace was over."""
    looks = [r for r in pacing if (r['policy'], r['round']) == key and float(r['at_s']) >= unfenced_at]
    if not looks:
        return '-'
    for r in looks[:3]:
        m = GRACE.match(r['reason'])
        if m:
            return m.group(1)
    return '0'


def main(run, lag):
    worst = defaultdict(float)
    rounds = rows(run, 'rounds.csv')
    unfenced = {(r['policy'], r['round']): float(r['unfenced_at_s']) for r in rounds}
    for r in rows(run, 'latency-seconds.csv'):
        key = (r['policy'], r['round'])
        if r['view'] == 'all' and r['p99_ms'] and key in unfenced:
            t = int(r['second'])
            if unfenced[key] <= t < unfenced[key] + 15:
                worst[key] = max(worst[key], float(r['p99_ms']))
    pacing = rows(run, 'pacing.csv')
    print('policy | round | stop to unfencing s | inside %g s | unthrottled after unfencing s | window P99 ms: not in'
          ' ISR / in-sync follower | worst second of the first 15 s ms' % lag)
    for r in sorted(rounds, key=lambda r: float(r['unfenced_at_s']) - float(r['stopped_at_s'])):
        key = (r['policy'], r['round'])
        back = float(r['unfenced_at_s']) - float(r['stopped_at_s'])
        print('%s | %s | %.1f | %s | %s | %s / %s | %.0f' % (
            r['policy'], r['round'], back, 'yes' if back < lag else 'no',
            grace_left(pacing, key, float(r['unfenced_at_s'])),
            r['window_p99_not_in_isr_ms'], r['window_p99_in_sync_follower_ms'], worst[key]))


if __name__ == '__main__':
    main(sys.argv[1].rstrip('/'), float(sys.argv[2]) if len(sys.argv) > 2 else 30.0)
