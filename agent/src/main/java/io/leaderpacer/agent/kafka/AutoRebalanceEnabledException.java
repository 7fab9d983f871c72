package io.leaderpacer.agent.kafka;

import java.util.List;

/**
 * The agent refuses to start because Kafka's own automatic leader rebalancing is on.
 *
 * <p>Why a dedicated type: it is an operator decision, not a fault; the run command prints the message as is
 * (it says exactly how to turn the setting off, or how to override the check) and exits with its own code.
 */
public final class AutoRebalanceEnabledException extends Exception {

    private static final long serialVersionUID = 1L;

    /** The brokers that reported it on. */
    private final List<Integer> brokers;

    public AutoRebalanceEnabledException(List<Integer> brokers, String bootstrapServers) {
        super(message(brokers, bootstrapServers));
        this.brokers = List.copyOf(brokers);
    }

    public List<Integer> brokers() {
        return brokers;
    }

    private static String message(List<Integer> brokers, String bootstrap) {
        String b = bootstrap == null || bootstrap.isBlank() ? "<bootstrap-servers>" : bootstrap;
        return "refusing to start: auto.leader.rebalance.enable=true on broker(s) " + brokers + ".\n"
                + "Kafka's controller would then run its own preferred-leader election and hand leadership back at once,\n"
                + "undoing the agent's gate and throttle. Kafka does not allow changing this setting at run time\n"
                + "(kafka-configs.sh --alter rejects it: \"Cannot update these configs dynamically\"), so:\n"
                + "  1. set   auto.leader.rebalance.enable=false   in server.properties of every controller and broker\n"
                + "     (in KRaft mode the controllers run the task);\n"
                + "  2. restart them one at a time (a rolling restart);\n"
                + "  3. check each broker with\n"
                + "     kafka-configs.sh --bootstrap-server " + b
                + " --entity-type brokers --entity-name <id> --describe --all"
                + " | grep auto.leader.rebalance.enable\n"
                + "Or start the agent with --allow-auto-rebalance to run alongside Kafka's own rebalancing anyway"
                + " (not recommended: the two will fight).";
    }
}
