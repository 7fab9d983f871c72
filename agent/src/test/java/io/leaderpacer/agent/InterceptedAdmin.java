package io.leaderpacer.agent;

import org.apache.kafka.clients.admin.Admin;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Test support: a real Admin client that runs an action once, just before the first call of a named method.
 *
 * <p>Why: some faults depend on timing a real cluster cannot be made to hit on its own: a broker dying exactly
 * while an election batch is in flight, a topic deleted between listing and describing. The cluster, the client
 * and every answer stay real; only the moment of the fault is chosen.
 */
final class InterceptedAdmin {

    /** An action that may throw (Admin calls, broker kills). */
    @FunctionalInterface
    interface Action {
        void run() throws Exception;
    }

    private InterceptedAdmin() {}

    static Admin beforeFirst(Admin real, String methodName, Action action) {
        AtomicBoolean done = new AtomicBoolean();
        return (Admin) Proxy.newProxyInstance(
                Admin.class.getClassLoader(), new Class<?>[] {Admin.class}, (proxy, method, args) -> {
                    if (method.getName().equals(methodName) && done.compareAndSet(false, true)) {
                        action.run();
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }
}
