/**
 * Calibration: fitting the model's parameters to what {@code pacer loadtest} measured on a real cluster, and saying
 * how close the fitted model comes (the residuals), so that a modelled figure can be traced to named real runs.
 */
package io.leaderpacer.simulator.calibrate;
