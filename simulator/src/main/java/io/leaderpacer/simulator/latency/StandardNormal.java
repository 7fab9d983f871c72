package io.leaderpacer.simulator.latency;

/**
 * The standard normal distribution's tails, accurate in relative terms far out in the tail
 * (where time-outs live), computed with {@link StrictMath} so results are identical everywhere.
 */
final class StandardNormal {

    private StandardNormal() {}

    /** P(Z > z). */
    static double upperTail(double z) {
        return 0.5 * erfc(z / StrictMath.sqrt(2.0));
    }

    /** P(Z <= z). */
    static double cdf(double z) {
        return 1.0 - upperTail(z);
    }

    /**
     * Complementary error function by the classic Chebyshev fit (fractional error below 1.2e-7
     * everywhere), which keeps its relative accuracy in the far tail.
     */
    static double erfc(double x) {
        double z = Math.abs(x);
        double t = 1.0 / (1.0 + 0.5 * z);
        double poly = -z * z
                - 1.26551223
                + t
                        * (1.00002368
                                + t
                                        * (0.37409196
                                                + t
                                                        * (0.09678418
                                                                + t
                                                                        * (-0.18628806
                                                                                + t
                                                                                        * (0.27886807
                                                                                                + t
                                                                                                        * (-1.13520398
                                                                                                                + t
                                                                                                                        * (1.48851587
                                                                                                                                + t
                                                                                                                                        * (-0.82215223
                                                                                                                                                + t
                                                                                                                                                        * 0.17087277))))))));
        double r = t * StrictMath.exp(poly);
        return x >= 0 ? r : 2.0 - r;
    }
}
