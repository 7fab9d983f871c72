package io.leaderpacer.simulator.scenario;

/**
 * How a topic's produce bytes are spread over its partitions. Request rates are spread evenly
 * (producers send one batch per partition every linger.ms whatever its size), bytes are not.
 *
 * @param kind      the distribution
 * @param parameter log-normal sigma, or Zipf exponent; unused for uniform
 */
public record RateSkew(Kind kind, double parameter) {

    /** The supported distributions. */
    public enum Kind {
        /** Every partition gets the same byte rate. */
        UNIFORM,
        /** Byte rates drawn from a log-normal with the given sigma, normalised to the topic's total. */
        LOGNORMAL,
        /** Partition ranks (a seeded shuffle) get rates proportional to 1 / rank^exponent. */
        ZIPF
    }

    public static RateSkew uniform() {
        return new RateSkew(Kind.UNIFORM, 0);
    }

    @Override
    public String toString() {
        return switch (kind) {
            case UNIFORM -> "uniform";
            case LOGNORMAL -> "lognormal(sigma=" + parameter + ")";
            case ZIPF -> "zipf(exponent=" + parameter + ")";
        };
    }
}
