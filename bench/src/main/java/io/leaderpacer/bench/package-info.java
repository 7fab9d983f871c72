/**
 * JMH benchmarks of the engine, and the generator of the large recovering clusters they run on.
 *
 * <p>The speed goal (one run over a million partitions in under 100 ms, and linear in the
 * partition count) is a property of the engine that unit tests must not time; it is measured here
 * and written down, with the command, in docs/PERFORMANCE.md. Building this module only compiles
 * the benchmarks into {@code target/benchmarks.jar}; nothing runs during {@code mvn verify}.
 */
package io.leaderpacer.bench;
