/**
 * Request-latency distributions without simulating requests: request-weighted histograms of
 * partition mean latencies (HdrHistogram) and the log-normal noise around each mean, from which
 * P99 and time-out counts are computed exactly.
 *
 * <p>Why: KIP-1358's criteria are about P99 and time-outs of produce requests; a million
 * partitions for hours is billions of requests, but only a few thousand distinct mean latencies
 * per second.
 */
package io.leaderpacer.simulator.latency;
