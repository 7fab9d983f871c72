package io.leaderpacer.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Free TCP ports on the loopback address, chosen once per node.
 *
 * <p>Why all at once: the sockets stay open until every port is chosen, so no two nodes get the same port; the
 * port is then kept for the node's life so that a restarted broker comes back at the address clients know.
 */
final class FreePorts {

    private FreePorts() {}

    static List<Integer> take(int count) {
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            List<Integer> ports = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
                sockets.add(s);
                ports.add(s.getLocalPort());
            }
            return ports;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find " + count + " free ports on the loopback address", e);
        } finally {
            for (ServerSocket s : sockets) {
                try {
                    s.close();
                } catch (IOException e) {
                    // closing a listening socket we just opened; nothing to do
                }
            }
        }
    }
}
