package io.leaderpacer.agent.chaos;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The chaos report's text: one figure per line, in the order and with the names the earlier reports have. */
class ChaosReportTest {

    @Test
    void everyFigure_isOneLine_inReportOrder() {
        ChaosReport report = new ChaosReport(
                new ChaosReport.Plan(42, 3),
                new ChaosReport.Faults(4, 1, 2, 5),
                new ChaosReport.AgentFaults(6, 7, 8),
                new ChaosReport.Runs(100, 2, 9, 10, 300, 290),
                new ChaosReport.Checks(5000, 11, 1, 0),
                new ChaosReport.Timing(60_000, 12_000),
                new ChaosReport.Load(70_000, 13));

        assertThat(report.text()).isEqualTo("""
                Leader Pacer chaos report
                seed                                   42
                steps                                  3
                restarts survived                      4
                  of which crashes                     1
                slow-follower episodes                 2
                list changes                           5
                agent stops                            6
                agent crashes                          7
                takeovers                              8
                runs                                   100
                  of which failed and retried          2
                  of which reached the cap             9
                  of which held a broker at the gate   10
                elections decided                      300
                elections made                         290
                invariant checks passed                5000
                settled runs checked                   11
                state reads skipped                    1
                failures                               0
                chaos wall ms                          60000
                settle wall ms                         12000
                load records sent                      70000
                load sends failed                      13
                """);
    }
}
